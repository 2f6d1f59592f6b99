package checkout

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/schemas"
)

// These tests fetch from the real services osbench names in manifests (the
// Go module proxy and checksum database, crates.io, the Debian archive) and
// from an HTTP server on loopback for archives. Each checks three things: a
// good pin builds and records its provenance; a wrong pin is refused with
// the manifest position of the pin and leaves nothing in the cache; and a
// second build with OSBENCH_OFFLINE=1 and no action cache is served from
// the mirror alone, giving the same tree.

// pinAt is the manifest position the tests give every config field.
const pinAt = "corpus/x.hcl:4:5"

type checkoutRun struct {
	res  *engine.StepResult
	eng  *engine.Engine
	prov schemas.Provenance
}

func buildCheckout(t *testing.T, cacheDir string, cfg map[string]any) checkoutRun {
	t.Helper()
	c, err := cache.Open(cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	step := &engine.Step{ID: "x/checkout", Kind: Kind, Group: "x"}
	for _, name := range sortedNames(cfg) {
		step.Config = append(step.Config, engine.Field{Name: name, Value: cfg[name], Source: pinAt})
	}
	g, err := engine.NewGraph([]*engine.Step{step})
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(c, engine.Options{Jobs: 1, KeepGoing: true})
	rep, err := e.Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	run := checkoutRun{res: rep.Steps[0], eng: e}
	if run.res.Status == engine.StatusRan || run.res.Status == engine.StatusHit {
		a, err := e.Artifacts(run.res)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.DecodeJSON(ResultProvenance, &run.prov); err != nil {
			t.Fatal(err)
		}
	}
	return run
}

func sortedNames(m map[string]any) []string {
	var names []string
	for k := range m {
		names = append(names, k)
	}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if names[j] < names[i] {
				names[i], names[j] = names[j], names[i]
			}
		}
	}
	return names
}

// treeFile reads one file of the checkout's tree.
func treeFile(t *testing.T, run checkoutRun, rel string) string {
	t.Helper()
	a, err := run.eng.Artifacts(run.res)
	if err != nil {
		t.Fatal(err)
	}
	b, err := a.TreeFile(ResultSource, rel)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return string(b)
}

// checkPinFlow runs the three checks for one source kind.
func checkPinFlow(t *testing.T, good, bad map[string]any, wantRefusal string, check func(t *testing.T, run checkoutRun)) {
	t.Helper()
	dir := t.TempDir()
	first := buildCheckout(t, dir, good)
	if first.res.Status != engine.StatusRan {
		t.Fatalf("good pin: %s %s", first.res.Status, first.res.Error)
	}
	check(t, first)
	// The mirrors hold complete upstream sources: osbench's alone, never
	// a run user's to read.
	mirrors := 0
	for _, name := range []string{"git", "gomod", "crates", "cargo-home", "debian", "archives"} {
		info, err := os.Stat(filepath.Join(dir, "state", name))
		if err != nil {
			continue
		}
		mirrors++
		if perm := info.Mode().Perm(); perm != 0o700 {
			t.Errorf("state/%s has mode %v, want 0700", name, perm)
		}
	}
	if mirrors == 0 {
		t.Errorf("no mirror in %s/state", dir)
	}
	if first.prov.Tree == "" || !cache.Digest(first.prov.Tree).Valid() {
		t.Errorf("provenance tree = %q", first.prov.Tree)
	}

	refused := buildCheckout(t, t.TempDir(), bad)
	if refused.res.Status != engine.StatusFailed {
		t.Fatalf("bad pin: status %s, want failed", refused.res.Status)
	}
	if !strings.HasPrefix(refused.res.Error, pinAt+": ") || !strings.Contains(refused.res.Error, wantRefusal) {
		t.Errorf("bad pin: error %q, want it to start with %s and say %q", refused.res.Error, pinAt, wantRefusal)
	}
	if rec, err := refused.eng.Cache().GetAction(refused.res.Key); err == nil && !rec.Failed {
		t.Errorf("bad pin: a successful action record was cached")
	}

	// Offline, with the action cache gone: only the mirror can serve it.
	if err := os.RemoveAll(filepath.Join(dir, "ac")); err != nil {
		t.Fatal(err)
	}
	t.Setenv(OfflineEnv, "1")
	again := buildCheckout(t, dir, good)
	if again.res.Status != engine.StatusRan {
		t.Fatalf("offline rebuild: %s %s", again.res.Status, again.res.Error)
	}
	if again.prov.Tree != first.prov.Tree {
		t.Errorf("offline rebuild made tree %s, first build %s", again.prov.Tree, first.prov.Tree)
	}
	// A pin the mirror never fetched cannot be had offline.
	if other := buildCheckout(t, t.TempDir(), good); other.res.Status != engine.StatusFailed || !strings.Contains(other.res.Error, OfflineEnv) {
		t.Errorf("offline build with an empty mirror: %s %q", other.res.Status, other.res.Error)
	}
}

func TestGoModuleSource(t *testing.T) {
	const sum = "h1:MTLVXXHf8ekldpJk3AKicLij9MdwOWkZ+a/jHHZby9E="
	checkPinFlow(t,
		map[string]any{"go_module": "github.com/gofrs/flock@v0.12.1", "sum": sum},
		map[string]any{"go_module": "github.com/gofrs/flock@v0.12.1", "sum": "h1:AAAAXXHf8ekldpJk3AKicLij9MdwOWkZ+a/jHHZby9E="},
		"the manifest pins h1:AAAA",
		func(t *testing.T, run checkoutRun) {
			want := schemas.Provenance{Kind: "go_module", Repo: "github.com/gofrs/flock", Version: "v0.12.1", Sum: sum, Tree: run.prov.Tree}
			if run.prov.Kind != want.Kind || run.prov.Repo != want.Repo || run.prov.Version != want.Version || run.prov.Sum != want.Sum {
				t.Errorf("provenance = %+v, want %+v", run.prov, want)
			}
			if !strings.Contains(treeFile(t, run, "flock_windows.go"), "LockFileEx") {
				t.Errorf("flock_windows.go lacks its Windows code")
			}
			treeFile(t, run, "flock_test.go") // the module zip has the tests
		})
}

// A module published before Go modules has no go.mod in its zip; the tree
// gets the one the proxy serves for it, so go test finds its main module.
func TestGoModuleWithoutGoMod(t *testing.T) {
	run := buildCheckout(t, t.TempDir(), map[string]any{
		"go_module": "github.com/denisbrodbeck/machineid@v1.0.1",
		"sum":       "h1:geKr9qtkB876mXguW2X6TU4ZynleN6ezuMSRhl4D7AQ=",
	})
	if run.res.Status != engine.StatusRan {
		t.Fatalf("checkout: %s %s", run.res.Status, run.res.Error)
	}
	if got := strings.TrimSpace(treeFile(t, run, "go.mod")); got != "module github.com/denisbrodbeck/machineid" {
		t.Errorf("go.mod = %q, want the proxy's module line", got)
	}
	treeFile(t, run, "id_windows.go")
}

func TestGoModuleUnknownVersion(t *testing.T) {
	run := buildCheckout(t, t.TempDir(), map[string]any{"go_module": "github.com/gofrs/flock@v0.0.99"})
	if run.res.Status != engine.StatusFailed || !strings.HasPrefix(run.res.Error, pinAt) {
		t.Errorf("unknown version: %s %q", run.res.Status, run.res.Error)
	}
}

func TestCrateSource(t *testing.T) {
	// filetime 0.2.25 ships no Cargo.lock, so osbench resolves one with cargo.
	const sha = "93fc1dc3aaf9bfed95e02e6ead5bbc89d5fa9a7b6c2e69f8a0ce3f6f5e1e3c11"
	good := map[string]any{"crate": "filetime@0.2.25"}
	first := buildCheckout(t, t.TempDir(), good)
	if first.res.Status != engine.StatusRan {
		t.Fatalf("%s %s", first.res.Status, first.res.Error)
	}
	real := first.prov.SHA256
	if !cache.Digest(real).Valid() {
		t.Fatalf("provenance sha256 = %q", real)
	}
	good["sha256"] = real
	if real == sha {
		t.Fatal("the wrong digest of the refusal case is the real one")
	}
	checkPinFlow(t, good, map[string]any{"crate": "filetime@0.2.25", "sha256": sha}, "the manifest pins "+sha,
		func(t *testing.T, run checkoutRun) {
			if run.prov.Kind != "crate" || run.prov.Repo != "filetime" || run.prov.Version != "0.2.25" {
				t.Errorf("provenance = %+v", run.prov)
			}
			if !strings.Contains(treeFile(t, run, "src/windows.rs"), "SetFileTime") {
				t.Errorf("src/windows.rs lacks its Windows code")
			}
			lock := treeFile(t, run, "Cargo.lock")
			if !strings.Contains(lock, `name = "windows-sys"`) {
				t.Errorf("generated Cargo.lock does not lock windows-sys:\n%s", lock)
			}
			if run.prov.Generated["Cargo.lock"] != string(cache.Sum([]byte(lock))) {
				t.Errorf("provenance does not record the generated Cargo.lock's digest: %v", run.prov.Generated)
			}
		})
}

func TestDebianSource(t *testing.T) {
	good := map[string]any{"debian": "libyaml=0.2.5-1", "suite": "bookworm"}
	first := buildCheckout(t, t.TempDir(), good)
	if first.res.Status != engine.StatusRan {
		t.Fatalf("%s %s", first.res.Status, first.res.Error)
	}
	good["sha256"] = first.prov.SHA256
	const wrong = "0000000000000000000000000000000000000000000000000000000000000000"
	checkPinFlow(t, good, map[string]any{"debian": "libyaml=0.2.5-1", "suite": "bookworm", "sha256": wrong}, "the manifest pins "+wrong,
		func(t *testing.T, run checkoutRun) {
			if run.prov.Kind != "debian" || run.prov.Repo != "libyaml" || run.prov.Version != "0.2.5-1" || run.prov.Suite != "bookworm" {
				t.Errorf("provenance = %+v", run.prov)
			}
			if !strings.Contains(treeFile(t, run, "src/api.c"), "yaml_") {
				t.Errorf("src/api.c is not libyaml's")
			}
			a, _ := run.eng.Artifacts(run.res)
			if _, err := a.TreeFile(ResultSource, "debian/control"); err == nil {
				t.Errorf("the upstream tree holds Debian's packaging")
			}
		})
}

func TestArchiveSource(t *testing.T) {
	archive := gzipped(t, tarBytes(t, []entry{{name: "lib-1.0/"}, {name: "lib-1.0/src/lib.c", body: "#ifdef _WIN32\n#endif\n"}}))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/dl/lib-1.0.tar.gz" {
			http.NotFound(w, r)
			return
		}
		w.Write(archive)
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	url := "http://" + l.Addr().String() + "/dl/lib-1.0.tar.gz"
	sha := string(cache.Sum(archive))
	sha = strings.TrimPrefix(sha, "sha256:")
	if !cache.Digest(sha).Valid() {
		t.Fatalf("cache.Sum gave %q", sha)
	}
	const wrong = "1111111111111111111111111111111111111111111111111111111111111111"
	checkPinFlow(t, map[string]any{"archive": url, "sha256": sha}, map[string]any{"archive": url, "sha256": wrong}, "want "+wrong,
		func(t *testing.T, run checkoutRun) {
			if run.prov.Kind != "archive" || run.prov.Repo != "lib-1.0" || run.prov.SHA256 != sha || run.prov.URL != url {
				t.Errorf("provenance = %+v", run.prov)
			}
			if treeFile(t, run, "src/lib.c") != "#ifdef _WIN32\n#endif\n" {
				t.Errorf("src/lib.c differs")
			}
		})
	// A wrong download leaves nothing in the mirror.
	dir := t.TempDir()
	buildCheckout(t, dir, map[string]any{"archive": url, "sha256": wrong})
	if entries, _ := os.ReadDir(filepath.Join(dir, "state", "archives")); len(entries) != 0 {
		t.Errorf("the mirror kept %d entries of a refused download", len(entries))
	}
}
