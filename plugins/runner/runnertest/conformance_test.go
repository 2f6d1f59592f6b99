package runnertest

import (
	"regexp"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
	_ "github.com/osbench/osbench/plugins/runner/all"
)

func TestConformance(t *testing.T) {
	for _, name := range runner.Names() {
		t.Run(name, func(t *testing.T) {
			r, _ := runner.Lookup(name)
			Run(t, r)
		})
	}
	if got := len(runner.Names()); got != 7 {
		t.Errorf("%d runners registered (%v), want go-test, libtest, ctest, junit, tap, trx and regex", got, runner.Names())
	}
}

// TestEveryParserHasARunner: the step finds a run's runner by its parser,
// so a parser without one is a run the step refuses.
func TestEveryParserHasARunner(t *testing.T) {
	for _, p := range parsers.Names() {
		if _, ok := runner.ForParser(p); !ok {
			t.Errorf("parser %q has no runner: add its package under plugins/runner", p)
		}
	}
}

// TestHomes: the languages whose runs had evidence before the runners
// moved have the same home runners.
func TestHomes(t *testing.T) {
	for language, want := range map[string]string{"go": "go-test", "rust": "libtest", "c": "ctest", "cpp": "", "csharp": "", "": ""} {
		got := ""
		if h := runner.Home(language); h != nil {
			got = h.Name
		}
		if got != want {
			t.Errorf("home of %q = %q, want %q", language, got, want)
		}
	}
}

// TestMissingPartFails takes each part out of a runner that has them all
// (go-test, a home) and of one that is no home (junit) — and libtest's
// doctests' Rewritable —, and wants Check to
// name it: the suite cannot pass a runner added in part.
func TestMissingPartFails(t *testing.T) {
	goTest, _ := runner.Lookup("go-test")
	junit, _ := runner.Lookup("junit")
	libtest, _ := runner.Lookup("libtest")
	tests := []struct {
		part string
		base *runner.Runner
		edit func(r *runner.Runner)
	}{
		{"Name", goTest, func(r *runner.Runner) { r.Name = "" }},
		{"Name", goTest, func(r *runner.Runner) { r.Name = "go-test-unregistered" }},
		{"Version", goTest, func(r *runner.Runner) { r.Version = "" }},
		{"Parser", goTest, func(r *runner.Runner) { r.Parser = "go-test-jsn" }},
		{"Parser", goTest, func(r *runner.Runner) { r.Parser = parsers.NameTAP }},
		{"Sample", goTest, func(r *runner.Runner) { r.Sample = runner.Sample{} }},
		{"Parser", goTest, func(r *runner.Runner) { r.Sample.IDs = []string{"ex/TestB"} }},
		{"SkipStyle", goTest, func(r *runner.Runner) { r.SkipStyle = "" }},
		{"SkipStyle", goTest, func(r *runner.Runner) { r.SkipStyle = "pytest" }},
		{"Output", goTest, func(r *runner.Runner) { r.Output = nil }},
		{"Output", goTest, func(r *runner.Runner) {
			o := *r.Output
			o.Pattern = regexp.MustCompile(`^never$`)
			r.Output = &o
		}},
		{"Output", junit, func(r *runner.Runner) {
			r.Output = &runner.OutputRule{ID: "junit-output", Reason: "x", Pattern: regexp.MustCompile(`<testcase`)}
		}},
		{"Started", goTest, func(r *runner.Runner) { r.Started = nil }},
		{"Started", goTest, func(r *runner.Runner) { r.Started = regexp.MustCompile(`^PASS$`) }},
		{"Rewritable", goTest, func(r *runner.Runner) { r.Rewritable = nil }},
		{"Rewritable", goTest, func(r *runner.Runner) { r.Rewritable = func(string) bool { return true } }},
		{"Rewritable", libtest, func(r *runner.Runner) { r.Rewritable = runner.NoneRewritable }},
		{"Known", goTest, func(r *runner.Runner) { r.Known = nil }},
		{"Known", junit, func(r *runner.Runner) { r.Known = func(runner.KnownRun) ([]string, bool) { return nil, true } }},
		{"Launch", goTest, func(r *runner.Runner) { r.Launch = nil }},
		{"Expected", goTest, func(r *runner.Runner) { r.Expected = nil }},
		{"Evidence", goTest, func(r *runner.Runner) { r.Evidence = nil }},
		{"Launch", junit, func(r *runner.Runner) { r.Launch = goTest.Launch }},
		{"Expected", junit, func(r *runner.Runner) { r.Expected = goTest.Expected }},
		{"Evidence", junit, func(r *runner.Runner) { r.Evidence = goTest.Evidence }},
		{"Home", junit, func(r *runner.Runner) { r.Home = "go" }},
		{"Home", goTest, func(r *runner.Runner) { r.Home = "cobol" }},
	}
	for _, tt := range tests {
		t.Run(tt.base.Name+"/"+tt.part, func(t *testing.T) {
			r := *tt.base
			tt.edit(&r)
			errs := Check(&r, t.TempDir())
			for _, err := range errs {
				if strings.Contains(err.Error(), ": "+tt.part+": ") {
					return
				}
			}
			t.Errorf("Check = %v, want a problem naming %s", errs, tt.part)
		})
	}
	// The runners as registered have none.
	for _, r := range []*runner.Runner{goTest, junit, libtest} {
		if errs := Check(r, t.TempDir()); len(errs) > 0 {
			t.Errorf("%s: %v", r.Name, errs)
		}
	}
}
