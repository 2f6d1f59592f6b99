// Package tasksplit divides the verified regions of one migration
// direction into a fixed number of groups, one task each (a manifest's
// split = N), and is the "split" step kind that hands one group's regions
// to that group's mask step.
//
// Why: in a repository whose platforms are split by directory (a C
// library's src/unix/ and src/win/), the regions of a direction are a whole
// backend — thousands of lines in dozens of files — and one task that
// masks all of it is neither solvable nor honestly graded. Split, each task
// masks one part and keeps the rest, so its FAIL_TO_PASS tests are the ones
// that part breaks and its gold patch restores only that part.
//
// The number of groups is fixed at compile time (the steps of every group
// are in the graph before anything runs); which region goes to which group
// is decided here, from the regions, by Assign, deterministically:
//
//  1. Units. A region that spans several functions (differential coverage
//     merges the lines of neighbouring functions across the blank lines
//     between them, so a target-only file is often one region) is first
//     cut at the functions' boundaries, keeping the parts that hold
//     differential lines. Then the regions that touch one function are one
//     unit — a group never takes half a function, since a coarse mask
//     (whole function bodies) of one half would take the other half too. A
//     region outside every function is a unit of its own.
//  2. Clusters. Units are clustered by the verifier's feature group (a
//     unit's is the one with most lines among its regions). While there
//     are fewer clusters than groups, or a cluster holds more than its
//     fair share of the lines (total/N), the largest such cluster that can
//     be divided is divided by the next level: directory (package), then
//     file, then unit.
//  3. Bins. Clusters are packed into the groups largest first, each into
//     the group with fewest lines so far (ties: the lower group), so sizes
//     come out as even as the clusters allow. Groups are numbered by the
//     first region they hold (file, then line), empty groups last.
//
// Every tie is broken by names and positions, never by map order, so the
// same regions give the same groups in every run.
package tasksplit

import (
	"path"
	"sort"

	"github.com/osbench/osbench/plugins/verify"
	"github.com/osbench/osbench/schemas"
)

// Group is one group of Assign's result: its regions, sorted by file and
// line, and its description.
type Group struct {
	schemas.TaskGroup
	Members []schemas.VerifiedRegion
}

// Assign divides regions (the kept regions of a direction) into n groups
// (n ≥ 1). funcs gives the function definitions of each file of the
// regions (verify.Functions); a file missing from it has none. Groups may
// be empty when the regions form fewer than n units. The second result is
// the number of units.
func Assign(regions []schemas.VerifiedRegion, funcs map[string][]verify.Function, n int) ([]Group, int) {
	if n < 1 {
		n = 1
	}
	sorted := append([]schemas.VerifiedRegion(nil), regions...)
	sort.SliceStable(sorted, func(i, j int) bool { return regionLess(sorted[i], sorted[j]) })
	sorted = cutAtFunctions(sorted, funcs)
	units := makeUnits(sorted, funcs)
	bins := pack(cluster(units, n), n)
	groups := make([]Group, n)
	for i, b := range bins {
		var members []schemas.VerifiedRegion
		for _, u := range b {
			members = append(members, u.regions...)
		}
		sort.SliceStable(members, func(i, j int) bool { return regionLess(members[i], members[j]) })
		groups[i] = Group{Members: members}
	}
	// Number the groups by their first region; empty ones last.
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := groups[i].Members, groups[j].Members
		switch {
		case len(a) == 0 || len(b) == 0:
			return len(a) > 0 && len(b) == 0
		default:
			return regionLess(a[0], b[0])
		}
	})
	for i := range groups {
		groups[i].TaskGroup = describe(groups[i].Members, i+1, n)
	}
	return groups, len(units)
}

// describe is a group's schemas.TaskGroup.
func describe(members []schemas.VerifiedRegion, index, of int) schemas.TaskGroup {
	g := schemas.TaskGroup{Index: index, Of: of, Regions: len(members)}
	features, files := map[string]bool{}, map[string]bool{}
	for _, r := range members {
		g.Lines += span(r)
		if r.FeatureGroup != "" && !features[r.FeatureGroup] {
			features[r.FeatureGroup] = true
			g.FeatureGroups = append(g.FeatureGroups, r.FeatureGroup)
		}
		if !files[r.File] {
			files[r.File] = true
			g.Files = append(g.Files, r.File)
		}
	}
	sort.Strings(g.FeatureGroups)
	sort.Strings(g.Files)
	return g
}

func regionLess(a, b schemas.VerifiedRegion) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Start != b.Start {
		return a.Start < b.Start
	}
	return a.End < b.End
}

// span is the number of lines a region spans.
func span(r schemas.VerifiedRegion) int {
	if r.End < r.Start {
		return 0
	}
	return r.End - r.Start + 1
}

// cutAtFunctions cuts every region that overlaps more than one of its
// file's outermost functions into one part per function and per stretch
// between them, each with the region's verdict and the differential lines
// that fall in it; parts without a differential line (the blank and
// comment lines merging bridged) are dropped. Other regions are kept as
// they are. regions are sorted by file and line, and so is the result.
func cutAtFunctions(regions []schemas.VerifiedRegion, funcs map[string][]verify.Function) []schemas.VerifiedRegion {
	var out []schemas.VerifiedRegion
	for _, r := range regions {
		outer := outermost(funcs[r.File])
		var touched []verify.Function
		for _, f := range outer {
			if f.From <= r.End && r.Start <= f.To {
				touched = append(touched, f)
			}
		}
		if len(touched) < 2 {
			out = append(out, r)
			continue
		}
		lines := r.Lines
		if len(lines) == 0 {
			for l := r.Start; l <= r.End; l++ {
				lines = append(lines, l)
			}
		}
		// The parts' bounds: each touched function, clipped to the
		// region, and the stretches before, between and after them.
		var bounds [][2]int
		at := r.Start
		for _, f := range touched {
			if f.From > at {
				bounds = append(bounds, [2]int{at, f.From - 1})
			}
			bounds = append(bounds, [2]int{max(f.From, r.Start), min(f.To, r.End)})
			at = f.To + 1
		}
		if at <= r.End {
			bounds = append(bounds, [2]int{at, r.End})
		}
		for _, b := range bounds {
			part := r
			part.Start, part.End, part.Lines = b[0], b[1], nil
			for _, l := range lines {
				if b[0] <= l && l <= b[1] {
					part.Lines = append(part.Lines, l)
				}
			}
			if len(part.Lines) > 0 {
				out = append(out, part)
			}
		}
	}
	return out
}

// outermost keeps the functions no other function contains, by first line.
func outermost(funcs []verify.Function) []verify.Function {
	sorted := append([]verify.Function(nil), funcs...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].From != sorted[j].From {
			return sorted[i].From < sorted[j].From
		}
		return sorted[i].To > sorted[j].To
	})
	var out []verify.Function
	for _, f := range sorted {
		if len(out) > 0 && f.To <= out[len(out)-1].To {
			continue // inside the previous outermost function
		}
		out = append(out, f)
	}
	return out
}

// unit is an indivisible set of regions: every region touching one
// function (transitively), or one region outside every function.
type unit struct {
	regions []schemas.VerifiedRegion // sorted
	lines   int
	feature string
	file    string // of the first region
}

// makeUnits joins the regions (sorted by file and line) that touch a
// common function, or overlap each other, into units, in the order of
// their first region.
func makeUnits(regions []schemas.VerifiedRegion, funcs map[string][]verify.Function) []unit {
	parent := make([]int, len(regions))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int) {
		ra, rb := find(a), find(b)
		if ra == rb {
			return
		}
		if rb < ra {
			ra, rb = rb, ra
		}
		parent[rb] = ra // the root is the earliest region
	}
	type fnKey struct {
		file     string
		from, to int
	}
	owner := map[fnKey]int{} // function → the first region that touched it
	for i, r := range regions {
		for _, f := range funcs[r.File] {
			if f.From <= r.End && r.Start <= f.To {
				k := fnKey{r.File, f.From, f.To}
				if first, ok := owner[k]; ok {
					union(first, i)
				} else {
					owner[k] = i
				}
			}
		}
		// Overlapping regions of one file (a verifier never makes them,
		// but a group must not hold half of a line range either).
		for j := i - 1; j >= 0 && regions[j].File == r.File; j-- {
			if regions[j].End >= r.Start {
				union(j, i)
			}
		}
	}
	byRoot := map[int]int{} // root region → index in units
	var units []unit
	for i, r := range regions {
		root := find(i)
		k, ok := byRoot[root]
		if !ok {
			k = len(units)
			byRoot[root] = k
			units = append(units, unit{file: r.File})
		}
		units[k].regions = append(units[k].regions, r)
		units[k].lines += span(r)
	}
	for i := range units {
		units[i].feature = mainFeature(units[i].regions)
	}
	return units
}

// mainFeature is the feature group with most lines among the regions
// (ties: the first by name); "" when no region has one.
func mainFeature(regions []schemas.VerifiedRegion) string {
	lines := map[string]int{}
	for _, r := range regions {
		lines[r.FeatureGroup] += span(r)
	}
	best := ""
	for f, n := range lines {
		if f == "" {
			continue
		}
		if best == "" || n > lines[best] || (n == lines[best] && f < best) {
			best = f
		}
	}
	return best
}

// The levels a cluster is divided by, coarsest first.
const (
	byFeature = iota
	byDirectory
	byFile
	byUnit
)

// clusterOf is a set of units that share a key at some level.
type clusterOf struct {
	key   string // for ties: the path of keys from the feature group down
	level int    // the level its units share
	units []unit
	lines int
}

// cluster groups units by feature group and divides the largest clusters
// by directory, file and unit while there are fewer than n, and then while
// one is larger than a fair share of the lines (total/n: a group that big
// would make the others small), as long as something can be divided.
func cluster(units []unit, n int) []clusterOf {
	total := 0
	for _, u := range units {
		total += u.lines
	}
	clusters := divide(clusterOf{level: -1, units: units}, byFeature)
	for {
		best := -1
		var parts []clusterOf
		for i, c := range clusters {
			if len(clusters) >= n && c.lines*n <= total {
				continue
			}
			if best >= 0 && (c.lines < clusters[best].lines || (c.lines == clusters[best].lines && c.key >= clusters[best].key)) {
				continue
			}
			if p := divideFurther(c); p != nil {
				best, parts = i, p
			}
		}
		if best < 0 {
			break
		}
		clusters = append(append(append([]clusterOf(nil), clusters[:best]...), parts...), clusters[best+1:]...)
	}
	return clusters
}

// divideFurther divides c at the first level below its own that gives at
// least two parts; nil when none does (c is one unit).
func divideFurther(c clusterOf) []clusterOf {
	for level := c.level + 1; level <= byUnit; level++ {
		if parts := divide(c, level); len(parts) >= 2 {
			return parts
		}
	}
	return nil
}

// divide splits c's units by their key at level, in the order of first
// appearance (units are in file and line order).
func divide(c clusterOf, level int) []clusterOf {
	index := map[string]int{}
	var parts []clusterOf
	for _, u := range c.units {
		var k string
		switch level {
		case byFeature:
			k = u.feature
		case byDirectory:
			k = path.Dir(u.file)
		case byFile:
			k = u.file
		default:
			// Units never share a first line (overlapping regions are
			// one unit), so this key is unique.
			k = u.file + "\x00" + pad(u.regions[0].Start)
		}
		j, ok := index[k]
		if !ok {
			j = len(parts)
			index[k] = j
			parts = append(parts, clusterOf{key: c.key + "\x00" + k, level: level})
		}
		parts[j].units = append(parts[j].units, u)
		parts[j].lines += u.lines
	}
	return parts
}

// pad makes line numbers sort as text.
func pad(n int) string {
	const digits = 10
	b := make([]byte, digits)
	for i := digits - 1; i >= 0; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b)
}

// pack puts clusters into n bins, largest cluster first, each into the
// bin with fewest lines (ties: the lower bin).
func pack(clusters []clusterOf, n int) [][]unit {
	order := append([]clusterOf(nil), clusters...)
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].lines != order[j].lines {
			return order[i].lines > order[j].lines
		}
		return order[i].key < order[j].key
	})
	bins := make([][]unit, n)
	size := make([]int, n)
	for _, c := range order {
		best := 0
		for b := 1; b < n; b++ {
			if size[b] < size[best] {
				best = b
			}
		}
		bins[best] = append(bins[best], c.units...)
		size[best] += c.lines
	}
	return bins
}
