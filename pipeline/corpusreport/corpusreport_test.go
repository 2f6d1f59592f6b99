package corpusreport

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/taskbuild"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ from the current output")

// The repositories of the fixtures: one that the fixture build reports
// never mention (zlib fails a step), and build entries and eval reports
// of a repository the manifests no longer name ("gone"), which must not
// count.
var fixtureRepos = []Repository{
	{Name: "flock", Language: "go", Pin: "github.com/gofrs/flock@v0.12.1", Directions: []string{"linux->windows", "windows->linux"}},
	{Name: "dunce", Language: "rust", Pin: "dunce@1.0.5", Directions: []string{"linux->windows", "windows->linux"}},
	{Name: "zlib", Language: "c", Pin: "zlib=1:1.2.13.dfsg-1", Directions: []string{"windows->linux", "linux->windows"}},
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		dir  string
		wall time.Duration
		note string
	}{
		// The tasks step ran: build-report.json is read.
		{dir: "complete", wall: 65*time.Minute + 3*time.Second},
		// zlib's failed step blocked the tasks step: the outcome.json of
		// the task steps that succeeded are read, and the stale
		// build-report.json beside them is not.
		{dir: "blocked", note: "Partial: one repository failed."},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			dir := filepath.Join("testdata", tc.dir)
			in, err := Load(dir, filepath.Join(dir, "eval"))
			if err != nil {
				t.Fatal(err)
			}
			in.Repositories, in.WallTime, in.Note = fixtureRepos, tc.wall, tc.note
			golden(t, filepath.Join(dir, "corpus.md"), []byte(Make(in).Markdown()))
		})
	}
}

func TestMakeCounts(t *testing.T) {
	in, err := Load(filepath.Join("testdata", "complete"), filepath.Join("testdata", "complete", "eval"))
	if err != nil {
		t.Fatal(err)
	}
	in.Repositories = fixtureRepos
	tab := Make(in)
	if tab.All.Repositories != 3 || tab.All.Candidates != 4 || tab.All.Tasks != 2 || tab.All.Rejected != 2 {
		t.Errorf("totals = %+v; want 3 repositories, 4 candidates, 2 tasks, 2 rejected (gone's entry left out)", tab.All)
	}
	if tab.All.Gold != 2 || tab.All.Empty != 0 || tab.All.Evaluated != 2 {
		t.Errorf("gold/empty = %d/%d of %d; want 2/0 of 2", tab.All.Gold, tab.All.Empty, tab.All.Evaluated)
	}
	if tab.StepsFailed != 1 || tab.BuildDuration != 3723*time.Second {
		t.Errorf("steps failed %d, build %s; want 1, 1h2m3s", tab.StepsFailed, tab.BuildDuration)
	}
	var zlib *Row
	for i := range tab.Rows {
		if tab.Rows[i].Name == "zlib" {
			zlib = &tab.Rows[i]
		}
	}
	if zlib == nil || len(zlib.Reasons) != 1 || !strings.HasPrefix(zlib.Reasons[0], "windows/test failed: executor died") {
		t.Errorf("zlib row = %+v; want its failed step as the one reason", zlib)
	}
	for _, d := range tab.ByDirection {
		if d.Repositories != 3 {
			t.Errorf("direction %s lists %d repositories; want 3", d.Key, d.Repositories)
		}
	}
}

func TestLoadBadFiles(t *testing.T) {
	for _, name := range []string{StepsFile, "build-report.json"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, name), []byte("{not json"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(dir, "")
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Fatalf("Load = %v; want an error naming %s", err, name)
			}
		})
	}
	// Nothing written yet: no error, nothing counted.
	in, err := Load(t.TempDir(), filepath.Join(t.TempDir(), "no-eval"))
	if err != nil || in.Steps != nil || len(in.Entries) != 0 || len(in.Eval) != 0 {
		t.Fatalf("Load of an empty directory = %+v, %v; want nothing and no error", in, err)
	}
}

// golden compares got with path, or rewrites it under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}

func TestPartialTasks(t *testing.T) {
	b, n, err := PartialTasks(filepath.Join("testdata", "blocked"))
	if err != nil {
		t.Fatal(err)
	}
	// flock's linux->windows task and dunce's windows->linux one; dunce's
	// linux->windows task step failed in this build, so its outcome.json
	// is an older one's, and flock's windows->linux candidate was rejected.
	var ids []string
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var task struct {
			InstanceID string `json:"instance_id"`
		}
		if err := json.Unmarshal([]byte(line), &task); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		ids = append(ids, task.InstanceID)
	}
	if want := []string{"dunce__windows-to-linux", "flock__linux-to-windows"}; n != 2 || strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Fatalf("PartialTasks = %d tasks %v; want %v", n, ids, want)
	}
	if _, _, err := PartialTasks(t.TempDir()); err == nil || !strings.Contains(err.Error(), StepsFile) {
		t.Fatalf("PartialTasks without a step report = %v; want an error naming %s", err, StepsFile)
	}
}

// The table says how the tasks' masks failed, from the build report's
// mask classes, and only for accepted tasks of named repositories.
func TestMaskClasses(t *testing.T) {
	in := Inputs{Repositories: fixtureRepos, Entries: []taskbuild.ReportEntry{
		{InstanceID: "flock__linux-to-windows", Repository: "flock", Direction: "linux->windows", Accepted: true, MaskClass: "quiet", FailToPass: 3, FailToPassByAssertion: 3},
		{InstanceID: "flock__windows-to-linux", Repository: "flock", Direction: "windows->linux", Accepted: true, MaskClass: "crash", FailToPass: 40, FailToPassByAssertion: 2},
		{InstanceID: "dunce__linux-to-windows", Repository: "dunce", Direction: "linux->windows", Rejected: "no FAIL_TO_PASS", MaskClass: "hang"},
		{InstanceID: "gone__linux-to-windows", Repository: "gone", Direction: "linux->windows", Accepted: true, MaskClass: "hang", FailToPass: 1},
	}}
	table := Make(in)
	if table.Masks["quiet"] != 1 || table.Masks["crash"] != 1 || table.Masks["hang"] != 0 || table.FailToPass != 43 || table.ByAssertion != 5 {
		t.Errorf("masks %v, FAIL_TO_PASS %d, by assertion %d", table.Masks, table.FailToPass, table.ByAssertion)
	}
	if md := table.Markdown(); !strings.Contains(md, "1 quiet, 1 crash, 0 hang; 5 of their 43 FAIL_TO_PASS tests failed by their own assertions") {
		t.Errorf("markdown lacks the mask line:\n%s", md)
	}
}

// TestEntryReason: a rejection names its direction and, in a split
// direction, its group; a candidate whose task step never ran (a failed
// step before it: its reason is empty) says so rather than nothing.
func TestEntryReason(t *testing.T) {
	for _, tt := range []struct {
		e    taskbuild.ReportEntry
		want string
	}{
		{taskbuild.ReportEntry{Direction: "linux->windows", Rejected: "no FAIL_TO_PASS"}, "linux->windows: no FAIL_TO_PASS"},
		{taskbuild.ReportEntry{Direction: "windows->linux", Rejected: "the masked target run crashes", Group: &schemas.TaskGroup{Index: 3, Of: 3}},
			"windows->linux group 3 of 3: the masked target run crashes"},
		{taskbuild.ReportEntry{Direction: "windows->linux", Failed: "…/group2of3/task skipped: input failed", Group: &schemas.TaskGroup{Index: 2, Of: 3}},
			"windows->linux group 2 of 3: no task step ran (a step before it failed)"},
	} {
		if got := entryReason(tt.e); got != tt.want {
			t.Errorf("entryReason(%+v) = %q, want %q", tt.e, got, tt.want)
		}
	}
}
