package taskbuild

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/label"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/schemas/schematest"
	"github.com/osbench/osbench/steps/maskrepo"
)

func TestSplitAdvice(t *testing.T) {
	for _, tc := range []struct {
		lines, files int
		want         string // "" or the suggested split
	}{
		{0, 0, ""},
		{400, 10, ""},
		{401, 1, "split = 3"},
		{90, 11, "split = 2"},
		{4102, 31, "split = 21"},
		{100000, 300, "split = 32"},
	} {
		got := SplitAdvice(tc.lines, tc.files)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("SplitAdvice(%d, %d) = %q, want %q", tc.lines, tc.files, got, tc.want)
		}
		if got != "" && !strings.Contains(got, fmt.Sprintf("masks %d lines in %d files", tc.lines, tc.files)) {
			t.Errorf("SplitAdvice(%d, %d) = %q does not say the size", tc.lines, tc.files, got)
		}
	}
}

// A large direction that is one task gets the hint; a group of a split
// direction never does, and the report names the group.
func TestReportEntriesOfSplitDirections(t *testing.T) {
	var big []schemas.VerifiedRegion
	for i := 0; i < 12; i++ {
		big = append(big, schemas.VerifiedRegion{Region: schemas.Region{File: fmt.Sprintf("src/unix/f%d.c", i), Start: 1, End: 50}})
	}
	whole := NewReportEntry(Outcome{InstanceID: "uv__windows-to-linux", Source: "windows", Target: "linux", Mask: maskrepo.Record{Regions: big}})
	if !strings.Contains(whole.SplitHint, "masks 600 lines in 12 files") || whole.Group != nil {
		t.Errorf("whole direction: hint %q, group %v", whole.SplitHint, whole.Group)
	}
	g := &schemas.TaskGroup{Index: 1, Of: 3, FeatureGroups: []string{"posix_api"}, Files: []string{"src/unix/f0.c"}, Regions: 12, Lines: 600}
	part := NewReportEntry(Outcome{InstanceID: "uv__windows-to-linux__group1of3", Source: "windows", Target: "linux", Accepted: true,
		Mask: maskrepo.Record{Regions: big}, Group: g, Labels: label.Labels{FailToPass: []string{"t"}},
		MaskedRun: schemas.MaskedRun{Class: schemas.MaskQuiet}, Task: &schemas.Task{Difficulty: "hard"}})
	if part.SplitHint != "" || part.Group != g {
		t.Errorf("group entry: hint %q, group %v", part.SplitHint, part.Group)
	}
	md := markdown(Report{Tasks: 1, Entries: []ReportEntry{part, whole}})
	for _, want := range []string{
		"| uv__windows-to-linux__group1of3 (group 1 of 3: posix_api; 600 lines, 1 file) |",
		"Large directions:\n\n- uv__windows-to-linux: this direction masks 600 lines in 12 files as one task; consider split = 3",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("build-report.md lacks %q:\n%s", want, md)
		}
	}
}

// An empty group (the direction's regions form fewer groups than split
// asks for) is rejected with the reason, before anything else is checked.
func TestEmptyGroupReason(t *testing.T) {
	why := emptyGroup(schemas.SplitRecord{Group: schemas.TaskGroup{Index: 3, Of: 3}, Formed: 2, Units: 2, Sizes: []int{7, 12, 0}})
	want := "group 3 of 3 is empty: the direction's verified regions form 2 indivisible units (the regions of one function stay together), which give 2 groups; lower split to 2"
	if why != want {
		t.Errorf("emptyGroup = %q\nwant %q", why, want)
	}
	e := NewReportEntry(Outcome{InstanceID: "a__linux-to-windows__group3of3", Repository: "a", Source: "linux", Target: "windows", Rejected: why, Group: &schemas.TaskGroup{Index: 3, Of: 3}})
	doc := Report{Rejected: 1, Entries: []ReportEntry{e}}
	raw := mustJSON(t, doc)
	if err := schematest.ValidateBytes(t, schematest.Compile(t, "build-report"), raw); err != nil {
		t.Errorf("report with an empty group does not match the schema: %v\n%s", err, raw)
	}
}

func TestStepIDs(t *testing.T) {
	if got := StepID("r", "linux", "windows", nil); got != "r/linux-to-windows/task" {
		t.Errorf("unsplit task step = %s", got)
	}
	if got := StepID("r", "linux", "windows", &schemas.TaskGroup{Index: 2, Of: 4}); got != "r/linux-to-windows/group2of4/task" {
		t.Errorf("group task step = %s", got)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
