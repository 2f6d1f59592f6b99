package compile

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/manifests"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// TestExampleConfigsGolden pins every configuration field and input of the
// example and corpus manifests' steps, with their kinds' versions: the
// parts of each key that the compiler and the kinds write. A change here
// reruns those steps in every user's cache, so it must be meant (a new
// behaviour, with a kind version or a field that says so); a refactor of
// how configs are built must leave this file as it is. The executor's
// fingerprint and the installed tools (Env) are left out: they are facts of
// the machine, not of the compiler.
func TestExampleConfigsGolden(t *testing.T) {
	for _, set := range []struct {
		name string
		dirs []string
		// hashed keeps one line per step, a hash of its lines: the
		// corpus has ~800 steps, and the examples' golden shows field by
		// field what a change does.
		hashed bool
	}{
		{"example-configs", []string{"examples"}, false},
		// Pinned remote sources (modules, crates, Debian packages) and
		// every preset the corpus uses.
		{"corpus-configs", []string{"corpus", "corpus/c", "corpus/cpp"}, true},
	} {
		t.Run(set.name, func(t *testing.T) {
			checkConfigGolden(t, manifestSet(t, set.dirs...), filepath.Join("testdata", set.name+".golden"), set.hashed)
		})
	}
}

func manifestSet(t *testing.T, dirs ...string) *manifests.Set {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	var paths []string
	for _, d := range dirs {
		paths = append(paths, filepath.Join(filepath.Dir(file), "..", "..", "manifests", d))
	}
	set, diags := manifests.Load(paths, manifests.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return set
}

func checkConfigGolden(t *testing.T, set *manifests.Set, golden string, hashed bool) {
	steps, err := Compile(context.Background(), set, Options{ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(steps, func(i, j int) bool { return steps[i].ID < steps[j].ID })
	var b strings.Builder
	for _, s := range steps {
		version := "?"
		if k, ok := engine.LookupKind(s.Kind); ok {
			version = k.Version()
		}
		fmt.Fprintf(&b, "%s (%s@%s)\n", s.ID, s.Kind, version)
		var lines []string
		for _, f := range s.Config {
			v, err := json.Marshal(f.Value)
			if err != nil {
				t.Fatalf("%s: config %s: %v", s.ID, f.Name, err)
			}
			var generic any
			if err := json.Unmarshal(v, &generic); err != nil {
				t.Fatal(err)
			}
			v, _ = json.Marshal(generic) // sorted object keys, as in keys
			lines = append(lines, fmt.Sprintf("  config.%s = %s", f.Name, goldenValue(v)))
		}
		for _, in := range s.Inputs {
			from := in.Step
			if in.Result != "" {
				from += ":" + in.Result
			}
			lines = append(lines, fmt.Sprintf("  input.%s <- %s", in.Name, from))
		}
		sort.Strings(lines)
		if hashed {
			sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
			fmt.Fprintf(&b, "  %x\n", sum[:12])
			continue
		}
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
	}
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("the examples' step configurations changed (keys with them); diff against %s:\n%s", golden, firstDiff(string(want), got))
	}
}

// goldenValue keeps a long value (a preset's build script) as its hash, so
// the golden stays readable and still changes with every byte.
func goldenValue(v []byte) string {
	if len(v) <= 200 {
		return string(v)
	}
	sum := sha256.Sum256(v)
	return fmt.Sprintf("%s… (%d bytes, sha256 %x)", v[:80], len(v), sum[:8])
}

// firstDiff shows the first differing line of two texts with its step.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	step := ""
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if !strings.HasPrefix(g, " ") {
			step = g
		}
		if w != g {
			return fmt.Sprintf("line %d (in %s):\n  want %s\n  got  %s", i+1, step, w, g)
		}
	}
	return "(same lines)"
}
