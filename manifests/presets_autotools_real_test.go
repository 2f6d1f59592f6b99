package manifests

import (
	"bytes"
	"context"
	"os/exec"
	"regexp"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/checkout"
)

// libyaml's Debian source ships configure.ac and no configure, so the
// preset regenerates it with autoreconf; make check runs its two test
// programs from tests/.
const (
	libyamlDebian = "libyaml=0.2.5-1"
	libyamlDSC    = "1edbf86e5cd76937ff62892ba6c2537456d645d834d4cd4a82430b8be7051bf4"
)

// unreachable matches what apt-get says when the archive cannot be reached,
// the one failure of the checkout that is not this test's business.
var unreachable = regexp.MustCompile(`Could not resolve|Temporary failure|Failed to fetch|Unable to connect|Network is unreachable|Connection (refused|timed out)`)

// TestAutotoolsPresetOnLibyaml runs the c-autotools preset's Linux commands
// on a real C library, fetched through osbench's own debian source kind.
func TestAutotoolsPresetOnLibyaml(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches and builds libyaml")
	}
	for _, tool := range []string{"autoreconf", "automake", "libtoolize", "make", "gcc", "gcov", "apt-get"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (scripts/deps.sh installs it)", tool)
		}
	}
	r := loadOne(t, `repository "libyaml" {
  preset = "c-autotools"
  source {
    debian = "`+libyamlDebian+`"
    sha256 = "`+libyamlDSC+`"
  }
  migrate = ["linux->windows"]
}
`)
	dir := checkoutDebian(t, r.Name)

	linux := r.Platforms[0]
	if out, err := runIn(dir, linux.Build.Argv); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, err := runIn(dir, linux.Test.Argv)
	if err != nil {
		t.Fatalf("test: %v\n%s", err, out)
	}
	parser, _ := parsers.Lookup(linux.Test.Parser)
	results, err := parser.Parse(bytes.NewReader(out), parsers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := make(map[string]schemas.Status)
	for _, res := range results {
		got[res.ID] = res.Status
	}
	want := map[string]schemas.Status{"tests/test-reader": schemas.StatusPass, "tests/test-version": schemas.StatusPass}
	if len(got) != len(want) || got["tests/test-reader"] != want["tests/test-reader"] || got["tests/test-version"] != want["tests/test-version"] {
		t.Errorf("results = %v, want %v\noutput:\n%s", got, want, out)
	}
	// The tests exercise the library: its reader and API have lines run.
	executed := importGcov(t, dir, linux.Coverage.Path)
	for _, file := range []string{"src/reader.c", "src/api.c"} {
		if executed[file] == 0 {
			t.Errorf("no line of %s ran; coverage: %v", file, executed)
		}
	}
}

// checkoutDebian runs the checkout step for libyaml in a fresh cache and
// writes its tree into a directory, which it returns.
func checkoutDebian(t *testing.T, name string) string {
	t.Helper()
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	step := &engine.Step{ID: name + "/checkout", Kind: checkout.Kind, Group: name, Config: []engine.Field{
		{Name: "debian", Value: libyamlDebian}, {Name: "sha256", Value: libyamlDSC}, {Name: "suite", Value: DefaultDebianSuite},
	}}
	g, err := engine.NewGraph([]*engine.Step{step})
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(c, engine.Options{Jobs: 1, KeepGoing: true})
	rep, err := e.Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Steps[0]
	if res.Status != engine.StatusRan {
		if unreachable.MatchString(res.Error) {
			t.Skipf("the Debian archive is unreachable: %s", res.Error)
		}
		t.Fatalf("checkout %s: %s %s", libyamlDebian, res.Status, res.Error)
	}
	a, err := e.Artifacts(res)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := a.Materialize(checkout.ResultSource, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}
