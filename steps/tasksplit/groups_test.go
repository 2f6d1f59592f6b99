package tasksplit

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/osbench/osbench/plugins/verify"
	"github.com/osbench/osbench/schemas"
)

// region is a kept region of file, lines from..to, in feature group fg.
func region(file string, from, to int, fg string) schemas.VerifiedRegion {
	return schemas.VerifiedRegion{
		Region:  schemas.Region{File: file, Start: from, End: to},
		Verdict: schemas.Verdict{Label: schemas.LabelAPI, FeatureGroup: fg},
	}
}

// withLines sets a region's differential lines.
func withLines(r schemas.VerifiedRegion, lines ...int) schemas.VerifiedRegion {
	r.Lines = lines
	return r
}

// fn is a function of lines from..to.
func fn(name string, from, to int) verify.Function {
	return verify.Function{Name: name, From: from, To: to}
}

// shape is what a test checks of a group: its regions as "file:start".
func shape(groups []Group) [][]string {
	out := make([][]string, len(groups))
	for i, g := range groups {
		out[i] = []string{}
		for _, r := range g.Members {
			out[i] = append(out[i], fmt.Sprintf("%s:%d", r.File, r.Start))
		}
	}
	return out
}

func sizes(groups []Group) []int {
	var out []int
	for _, g := range groups {
		out = append(out, g.Lines)
	}
	return out
}

func TestAssign(t *testing.T) {
	tests := []struct {
		name    string
		regions []schemas.VerifiedRegion
		funcs   map[string][]verify.Function
		n       int
		want    [][]string
		sizes   []int
		units   int
	}{
		{
			name:    "unsplit: one group holds everything",
			regions: []schemas.VerifiedRegion{region("a.go", 1, 10, "x"), region("b.go", 5, 6, "y")},
			n:       1,
			want:    [][]string{{"a.go:1", "b.go:5"}},
			sizes:   []int{12},
			units:   2,
		},
		{
			name: "two feature groups, two groups",
			regions: []schemas.VerifiedRegion{
				region("backend_unix.go", 10, 30, "home_dir"), region("backend_unix.go", 40, 70, "split_list"),
				region("backend_unix.go", 80, 85, "home_dir"),
			},
			funcs: map[string][]verify.Function{"backend_unix.go": {fn("homeDir", 9, 31), fn("splitList", 39, 71), fn("homeFallback", 79, 86)}},
			n:     2,
			want:  [][]string{{"backend_unix.go:10", "backend_unix.go:80"}, {"backend_unix.go:40"}},
			sizes: []int{27, 31},
			units: 3,
		},
		{
			name: "a function is never divided, whatever its regions' feature groups",
			regions: []schemas.VerifiedRegion{
				region("w.go", 5, 8, "path_separators"), region("w.go", 12, 14, "home_dir"), region("w.go", 30, 40, "file_attributes"),
			},
			funcs: map[string][]verify.Function{"w.go": {fn("Normalize", 1, 20), fn("attrs", 25, 45)}},
			n:     3,
			// Normalize's two regions are one unit; the third group is empty.
			want:  [][]string{{"w.go:5", "w.go:12"}, {"w.go:30"}, {}},
			sizes: []int{7, 11, 0},
			units: 2,
		},
		{
			name: "one feature group, two packages: divided by directory",
			regions: []schemas.VerifiedRegion{
				region("src/unix/fs.c", 1, 100, "posix_api"), region("src/unix/proc.c", 1, 50, "posix_api"),
				region("src/win/fs.c", 1, 120, "posix_api"), region("src/win/proc.c", 1, 40, "posix_api"),
			},
			n:     2,
			want:  [][]string{{"src/unix/fs.c:1", "src/unix/proc.c:1"}, {"src/win/fs.c:1", "src/win/proc.c:1"}},
			sizes: []int{150, 160},
			units: 4,
		},
		{
			name: "one feature group, one directory: divided by file, then packed",
			regions: []schemas.VerifiedRegion{
				region("unix/a.c", 1, 100, "posix_api"), region("unix/b.c", 1, 60, "posix_api"),
				region("unix/c.c", 1, 50, "posix_api"), region("unix/d.c", 1, 10, "posix_api"),
			},
			n: 2,
			// Largest first, each into the lighter group: a(100) | b(60),
			// c(50) → 110 > 100, so d(10) joins a.
			want:  [][]string{{"unix/a.c:1", "unix/d.c:1"}, {"unix/b.c:1", "unix/c.c:1"}},
			sizes: []int{110, 110},
			units: 4,
		},
		{
			name: "more feature groups than groups: packed largest first",
			regions: []schemas.VerifiedRegion{
				region("a.go", 1, 50, "fa"), region("b.go", 1, 40, "fb"), region("c.go", 1, 30, "fc"), region("d.go", 1, 20, "fd"),
			},
			n:     2,
			want:  [][]string{{"a.go:1", "d.go:1"}, {"b.go:1", "c.go:1"}},
			sizes: []int{70, 70},
			units: 4,
		},
		{
			name: "regions of one file in separate functions may go to separate groups",
			regions: []schemas.VerifiedRegion{
				region("x.go", 3, 4, "same"), region("x.go", 10, 12, "same"),
			},
			funcs: map[string][]verify.Function{"x.go": {fn("f", 1, 5), fn("g", 8, 14)}},
			n:     2,
			want:  [][]string{{"x.go:3"}, {"x.go:10"}},
			sizes: []int{2, 3},
			units: 2,
		},
		{
			name: "a region merged across two functions is cut at their boundary",
			// Lines 42 (the first function's closing brace) and 44 (the
			// second's header) are differential; 43, a blank line, only
			// merged them.
			regions: []schemas.VerifiedRegion{withLines(region("readdir_windows.go", 16, 66, "read_dirents"), 17, 20, 42, 44, 50, 66)},
			funcs:   map[string][]verify.Function{"readdir_windows.go": {fn("readDirents", 16, 42), fn("readDirnames", 44, 66)}},
			n:       2,
			want:    [][]string{{"readdir_windows.go:16"}, {"readdir_windows.go:44"}},
			sizes:   []int{27, 23},
			units:   2,
		},
		{
			name: "a region over a function and top-level lines keeps the parts with differential lines",
			regions: []schemas.VerifiedRegion{
				region("y.go", 1, 30, "a"), // no line list: every line is differential
				withLines(region("w.go", 1, 30, "w"), 3, 25),
				region("y.go", 40, 42, "b"),
			},
			funcs: map[string][]verify.Function{
				"y.go": {fn("f", 5, 10), fn("closure", 6, 8), fn("g", 20, 45)},
				"w.go": {fn("h", 10, 12), fn("k", 20, 28)},
			},
			n: 2,
			// y.go: [1,4] [5,10] [11,19] and [20,30] joined with [40,42] in g;
			// w.go: only [1,9] (line 3) and [20,28] (line 25) hold lines.
			// Cluster a (33 lines) is over half of 51, so it is divided.
			want:  [][]string{{"w.go:1", "w.go:20", "y.go:5"}, {"y.go:1", "y.go:11", "y.go:20", "y.go:40"}},
			sizes: []int{24, 27},
			units: 6,
		},
		{
			name: "a feature group over half of the lines is divided by file",
			regions: []schemas.VerifiedRegion{
				region("unix/a.c", 1, 60, "syscalls"), region("unix/b.c", 1, 50, "syscalls"),
				region("unix/c.c", 1, 40, "syscalls"), region("unix/d.c", 1, 20, "scanner"),
			},
			n: 2,
			// 150 of 170 lines in syscalls: by file, then packed a | b, c | d to a.
			want:  [][]string{{"unix/a.c:1", "unix/d.c:1"}, {"unix/b.c:1", "unix/c.c:1"}},
			sizes: []int{80, 90},
			units: 4,
		},
		{
			name:    "no regions: every group empty",
			regions: nil,
			n:       2,
			want:    [][]string{{}, {}},
			sizes:   []int{0, 0},
			units:   0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			groups, units := Assign(tt.regions, tt.funcs, tt.n)
			if got := shape(groups); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("groups = %v, want %v", got, tt.want)
			}
			if got := sizes(groups); !reflect.DeepEqual(got, tt.sizes) {
				t.Errorf("sizes = %v, want %v", got, tt.sizes)
			}
			if units != tt.units {
				t.Errorf("units = %d, want %d", units, tt.units)
			}
			for i, g := range groups {
				if g.Index != i+1 || g.Of != tt.n || g.Regions != len(g.Members) {
					t.Errorf("group %d is described as %+v", i+1, g.TaskGroup)
				}
			}
		})
	}
}

// TestAssignDeterministic: the same regions in any order, and with any
// map of functions, give the same groups.
func TestAssignDeterministic(t *testing.T) {
	var regions []schemas.VerifiedRegion
	funcs := map[string][]verify.Function{}
	for f := 0; f < 7; f++ {
		file := fmt.Sprintf("src/%c/f%d.c", 'a'+f%3, f)
		for k := 0; k < 6; k++ {
			from := 1 + k*20
			regions = append(regions, region(file, from, from+3+(f*k)%9, fmt.Sprintf("fg%d", (f+k)%4)))
			if k%2 == 0 {
				funcs[file] = append(funcs[file], fn(fmt.Sprintf("fn%d", k), from, from+35)) // spans two regions
			}
		}
	}
	want, wantUnits := Assign(regions, funcs, 3)
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 50; trial++ {
		shuffled := append([]schemas.VerifiedRegion(nil), regions...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, units := Assign(shuffled, funcs, 3)
		if !reflect.DeepEqual(got, want) || units != wantUnits {
			t.Fatalf("trial %d: groups differ for the same regions in another order:\n got %v\nwant %v", trial, shape(got), shape(want))
		}
	}
	// Every region is in exactly one group, and a function's regions in one.
	seen := map[string]int{}
	for i, g := range want {
		for _, r := range g.Members {
			key := fmt.Sprintf("%s:%d", r.File, r.Start)
			if _, dup := seen[key]; dup {
				t.Errorf("%s is in two groups", key)
			}
			seen[key] = i
		}
	}
	if len(seen) != len(regions) {
		t.Errorf("%d regions assigned, want %d", len(seen), len(regions))
	}
	for file, fs := range funcs {
		for _, f := range fs {
			group := -1
			for _, r := range regions {
				if r.File != file || r.End < f.From || r.Start > f.To {
					continue
				}
				g := seen[fmt.Sprintf("%s:%d", r.File, r.Start)]
				if group >= 0 && g != group {
					t.Errorf("function %s of %s is divided between groups %d and %d", f.Name, file, group+1, g+1)
				}
				group = g
			}
		}
	}
	for _, g := range want {
		if g.Regions == 0 {
			t.Errorf("group %d is empty although there are %d units", g.Index, wantUnits)
		}
	}
}
