// Package runnertest is the conformance suite every test runner of
// plugins/runner passes (as plugins/lang/langtest is the languages'): a
// runner added in part fails it with a message naming the part. Check
// lists the problems of one runner; Run reports them as test failures.
//
// Every part must be set, to a real one or to plugins/runner's None value
// (a part forgotten and a part the runner does not have look alike
// otherwise), and each must work on the runner's own sample: the parser
// reads the sample's tests, the output rule flags the sample in a patch
// (through the tamper scan, which reads the registered runners' rules),
// the skip style exists, and the language-bound parts belong to a runner
// that is its language's home and never turn a result into a pass.
package runnertest

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all" // the skip styles
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/plugins/tamper"
	"github.com/osbench/osbench/schemas"
)

// Run reports every problem Check finds as a failure of t.
func Run(t *testing.T, r *runner.Runner) {
	t.Helper()
	for _, err := range Check(r, t.TempDir()) {
		t.Error(err)
	}
}

// Check lists the problems of r; work is a scratch directory for its
// launcher and expected tests.
func Check(r *runner.Runner, work string) []error {
	var errs []error
	fail := func(part, format string, args ...any) {
		errs = append(errs, fmt.Errorf("runner %q: %s: %s", r.Name, part, fmt.Sprintf(format, args...)))
	}
	if r.Name == "" {
		fail("Name", "empty")
	} else if reg, ok := runner.Lookup(r.Name); !ok || reg.Parser != r.Parser {
		fail("Name", "not registered (runner.Register in the package's init, and a line in plugins/runner/all)")
	}
	if n, err := strconv.Atoi(r.Version); err != nil || n < 1 {
		fail("Version", "%q is not a version (\"1\", \"2\", …)", r.Version)
	}
	checkParser(r, fail)
	checkSkipStyle(r, fail)
	checkOutput(r, fail)
	switch {
	case r.Started == nil:
		fail("Started", "missing (runner.NoStartMark if no line says the tests started)")
	case r.Started != runner.NoStartMark && !slices.ContainsFunc(strings.Split(r.Sample.Output, "\n"), r.Started.MatchString):
		fail("Started", "%s marks no line of the runner's sample", r.Started)
	}
	if r.Rewritable == nil {
		fail("Rewritable", "missing (runner.NoneRewritable if every test the runner reports is defined in code the task restores)")
	} else {
		for _, id := range r.Sample.IDs {
			if r.Rewritable(id) && !slices.Contains(r.Sample.Rewritable, id) {
				fail("Rewritable", "says the sample's %s is defined where a patch can rewrite it; list it in Sample.Rewritable if that is so", id)
			}
		}
		for _, id := range r.Sample.Rewritable {
			if !r.Rewritable(id) {
				fail("Rewritable", "the sample lists %s as rewritable, the runner says it is not", id)
			}
		}
	}
	if r.Known == nil {
		fail("Known", "missing (runner.KnowsNone if the runner's output cannot tell which tests exist)")
	} else if _, complete := r.Known(runner.KnownRun{TimedOut: true}); complete {
		fail("Known", "a run cut short before any result is said to show all its tests")
	}
	checkHome(r, work, fail)
	return errs
}

// checkParser: the parser is registered and reads the sample's tests.
func checkParser(r *runner.Runner, fail func(part, format string, args ...any)) {
	p, ok := parsers.Lookup(r.Parser)
	if !ok {
		fail("Parser", "%q is no registered parser (plugins/parsers)", r.Parser)
		return
	}
	if r.Sample.Output == "" || len(r.Sample.IDs) == 0 {
		fail("Sample", "missing: a piece of the runner's output and the test ids its parser reads from it")
		return
	}
	results, err := p.Parse(strings.NewReader(r.Sample.Output), r.Sample.Options)
	if err != nil {
		fail("Parser", "%s cannot read the sample: %v", r.Parser, err)
		return
	}
	var ids []string
	for _, res := range results {
		ids = append(ids, res.ID)
	}
	if !slices.Equal(ids, r.Sample.IDs) {
		fail("Parser", "%s reads the tests %q from the sample, want %q", r.Parser, ids, r.Sample.IDs)
	}
}

// checkSkipStyle: the style is one of the languages' (plugins/lang).
func checkSkipStyle(r *runner.Runner, fail func(part, format string, args ...any)) {
	switch {
	case r.SkipStyle == "":
		fail("SkipStyle", "missing (runner.NoSkipStyle if the runner has no flag that leaves tests out)")
	case r.SkipStyle == runner.NoSkipStyle:
	default:
		if _, ok := lang.Default.SkipStyle(r.SkipStyle); !ok {
			fail("SkipStyle", "%q is none of the skip styles %q", r.SkipStyle, lang.SkipStyleNames())
		}
	}
}

// checkOutput: the output rule flags the runner's own sample, in a patch
// the tamper scan reads.
func checkOutput(r *runner.Runner, fail func(part, format string, args ...any)) {
	switch {
	case r.Output == nil:
		fail("Output", "missing (runner.NoOutput if no pattern can tell the runner's output)")
		return
	case r.Output == runner.NoOutput:
		return
	case !strings.HasPrefix(r.Output.ID, "runner-output-") || r.Output.Reason == "" || r.Output.Pattern == nil:
		fail("Output", "a rule needs an ID runner-output-<name>, a reason and a pattern: %+v", *r.Output)
		return
	}
	lines := strings.Split(strings.TrimRight(r.Sample.Output, "\n"), "\n")
	if !slices.ContainsFunc(lines, r.Output.Pattern.MatchString) {
		fail("Output", "the pattern of %s matches no line of the runner's sample", r.Output.ID)
		return
	}
	var patch strings.Builder
	fmt.Fprintf(&patch, "diff --git a/forge.sh b/forge.sh\n--- a/forge.sh\n+++ b/forge.sh\n@@ -0,0 +1,%d @@\n", len(lines))
	for _, l := range lines {
		patch.WriteString("+" + l + "\n")
	}
	for _, f := range tamper.Scan([]byte(patch.String())) {
		if f.Rule == r.Output.ID {
			return
		}
	}
	fail("Output", "the tamper scan finds no %s in a patch that prints the runner's sample", r.Output.ID)
}

// checkHome: the language-bound parts are set, are the None ones unless
// the runner is its language's home, and never make a pass.
func checkHome(r *runner.Runner, work string, fail func(part, format string, args ...any)) {
	parts := []struct {
		name string
		fn   any
		none any
	}{
		{"Launch", r.Launch, runner.NoLaunch},
		{"Expected", r.Expected, runner.NoExpected},
		{"Evidence", r.Evidence, runner.NoEvidence},
	}
	missing := false
	for _, p := range parts {
		switch {
		case reflect.ValueOf(p.fn).IsNil():
			fail(p.name, "missing (runner.No%s if the runner has none)", p.name)
			missing = true
		case r.Home == "" && reflect.ValueOf(p.fn).Pointer() != reflect.ValueOf(p.none).Pointer():
			fail(p.name, "set, but the runner is no language's Home: the step takes a run's %s from its language's home runner and would never call it", p.name)
		}
	}
	if missing {
		return
	}
	if r.Home != "" {
		if _, ok := lang.Lookup(r.Home); !ok {
			fail("Home", "%q is no language of plugins/lang", r.Home)
		}
		if h := runner.Home(r.Home); h != nil && h.Name != r.Name {
			fail("Home", "%q is already runner %q's home", r.Home, h.Name)
		}
	}
	launch, err := r.Launch(work)
	if err != nil {
		fail("Launch", "in an empty work dir: %v", err)
	} else if launch != nil && (launch.Env == nil || !slices.Contains(launch.Writable, launch.Records) && launch.Records != "") {
		fail("Launch", "a launcher needs Env, and its Records among its Writable dirs: %+v", *launch)
	}
	if _, err := r.Expected(work, "linux", nil); err != nil {
		fail("Expected", "in an empty repository: %v", err)
	}
	in := []schemas.TestResult{{ID: "a", Status: schemas.StatusFail}, {ID: "b", Status: schemas.StatusSkip}, {ID: "c", Status: schemas.StatusMissing}}
	out, _, err := r.Evidence(runner.Run{
		Repo: work, Platform: "linux", Ran: true, Log: io.Discard,
		List: func([]string, io.Writer) (executors.Result, error) {
			return executors.Result{}, errors.New("no listing in the conformance suite")
		},
		Read:      func(string, string) ([]byte, error) { return nil, errors.New("no files in the conformance suite") },
		WorkToken: func(b []byte) []byte { return b },
	}, slices.Clone(in))
	if err != nil {
		fail("Evidence", "in an empty repository: %v", err)
	}
	for i, res := range out {
		if i < len(in) && res.Status == schemas.StatusPass {
			fail("Evidence", "turned %s's %s into a pass: evidence only marks or denies", res.ID, in[i].Status)
		}
	}
}
