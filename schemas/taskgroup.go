package schemas

import "fmt"

// TaskGroup names the part of a migration direction one task restores,
// when the manifest splits the direction (split = N): the direction's
// verified regions are divided into Of groups (steps/tasksplit), and the
// task masks only group Index's regions — the other groups' code stays in
// the task's repository. A direction that is not split has no group.
type TaskGroup struct {
	Index int `json:"index"` // 1-based
	Of    int `json:"of"`    // the manifest's split
	// FeatureGroups are the verifier's feature groups of the group's
	// regions, sorted; Files the files they are in, sorted.
	FeatureGroups []string `json:"feature_groups,omitempty"`
	Files         []string `json:"files,omitempty"`
	// Regions and Lines count the group's verified regions and the lines
	// they span (End-Start+1 each).
	Regions int `json:"regions"`
	Lines   int `json:"lines"`
}

// GroupFile is the split step's description of its group (a SplitRecord).
const GroupFile = "group.json"

// SplitRecord is what the split step of one group records: its group, and
// how the whole direction was divided, so a report can say why a group is
// empty or how big the others are.
type SplitRecord struct {
	Group TaskGroup `json:"group"`
	// Formed is the number of non-empty groups the direction's regions
	// gave (at most Of): fewer when they sit in fewer functions than Of.
	Formed int `json:"formed"`
	// Sizes are the lines of every group, by index (Sizes[0] is group 1).
	Sizes []int `json:"sizes"`
	// Units counts the indivisible units the regions formed (the regions
	// of one function are one unit).
	Units int `json:"units"`
}

// Name is the group's name in task IDs and step IDs: "group2of3".
func (g TaskGroup) Name() string { return fmt.Sprintf("group%dof%d", g.Index, g.Of) }
