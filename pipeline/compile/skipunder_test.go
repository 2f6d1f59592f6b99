package compile

import (
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/manifests"
)

// The examples' Wine-only skips (fsapi's skip_under.wine) apply when Wine
// runs the windows platform and not on a real Windows machine: with
// --executor windows=local the windows test commands run those tests, and
// their steps' configurations, hence keys, change; every linux step stays
// as it was.
func TestWineOnlySkipsLeaveRealWindows(t *testing.T) {
	compileWith := func(executors map[string]string) map[string]*engine.Step {
		_, file, _, _ := runtime.Caller(0)
		dir := filepath.Join(filepath.Dir(file), "..", "..", "manifests", "examples")
		set, diags := manifests.Load([]string{dir}, manifests.LoadOptions{Executors: executors})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		steps, err := Compile(context.Background(), set, Options{ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
		if err != nil {
			t.Fatal(err)
		}
		byID := map[string]*engine.Step{}
		for _, s := range steps {
			byID[s.ID] = s
		}
		return byID
	}
	wine, native := compileWith(nil), compileWith(map[string]string{"windows": "local"})

	for _, id := range []string{"fsapi/windows/test", "fsapi/windows/test#2", "fsapi/windows/gold-rerun", "fsapi/linux-to-windows/masked/windows/test"} {
		w, n := wine[id], native[id]
		if w == nil || n == nil {
			if id == "fsapi/windows/test#2" {
				continue // flaky_runs = 1
			}
			t.Fatalf("%s: missing (wine %v, local %v)", id, w != nil, n != nil)
		}
		wSkip, nSkip := field(t, w, "skip"), field(t, n, "skip")
		if wSkip != `["TestSymlinkResolve","TestIsWritable","TestFindEntry"]` {
			t.Errorf("%s under wine: skip %s", id, wSkip)
		}
		if nSkip != `[]` {
			t.Errorf("%s with executor local: skip %s, want none", id, nSkip)
		}
		if !strings.Contains(field(t, w, "test"), `"-skip"`) || strings.Contains(field(t, n, "test"), `"-skip"`) {
			t.Errorf("%s: -skip in the wine command %v, in the local one %v; want only under wine", id,
				strings.Contains(field(t, w, "test"), `"-skip"`), strings.Contains(field(t, n, "test"), `"-skip"`))
		}
		if configText(t, w) == configText(t, n) {
			t.Errorf("%s: same configuration (key) under wine and local", id)
		}
	}
	// A windows step without Wine-only skips changes its executor alone.
	if w, n := configText(t, wine["pathsep/windows/test"]), configText(t, native["pathsep/windows/test"]); strings.Replace(w, `executor="wine"`, `executor="local"`, 1) != n {
		t.Errorf("pathsep/windows/test differs by more than its executor:\nwine  %s\nlocal %s", w, n)
	}
	for id, w := range wine {
		if strings.Contains(id, "/linux/") && configText(t, w) != configText(t, native[id]) {
			t.Errorf("%s changed with the windows executor", id)
		}
	}
}

// field is one configuration field of s as canonical JSON.
func field(t *testing.T, s *engine.Step, name string) string {
	t.Helper()
	for _, f := range s.Config {
		if f.Name == name {
			b, err := json.Marshal(f.Value)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	t.Fatalf("%s has no config field %s", s.ID, name)
	return ""
}

// configText is s's whole configuration as JSON, field by field.
func configText(t *testing.T, s *engine.Step) string {
	t.Helper()
	var parts []string
	for _, f := range s.Config {
		parts = append(parts, f.Name+"="+field(t, s, f.Name))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}
