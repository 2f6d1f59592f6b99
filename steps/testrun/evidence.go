package testrun

import (
	"fmt"
	"io"

	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/runner"
	_ "github.com/osbench/osbench/plugins/runner/all" // the runners a run's language and parser name
	"github.com/osbench/osbench/schemas"
)

// Evidence that a suite ran, independent of what its processes printed,
// and the run's test definitions (docs/security.md, "Forging results"):
// the channel the run's runner's own artifacts give (plugins/runner: the
// home runner of the run's language collects it).

// evidenceRun is what collectEvidence needs of a finished run.
type evidenceRun struct {
	runner         *runner.Runner
	repo, platform string
	env            map[string]string
	expected       []string
	records        string // the runner's launcher's record directory
	coverage       []byte // the raw coverage file the run wrote
	ran            bool   // the build succeeded and the tests ran
	log            io.Writer
	// list runs a listing command in the run's environment; its stdout goes
	// to out only.
	list func(argv []string, out io.Writer) (executors.Result, error)
}

type collected struct {
	results     []schemas.TestResult
	definitions *schemas.TestDefinitions
}

// collectEvidence marks results with their evidence and lists the run's
// test definitions, then logs every pass the evidence denied.
func collectEvidence(r evidenceRun, results []schemas.TestResult) (collected, error) {
	repo := r.repo
	res, defs, err := r.runner.Evidence(runner.Run{
		Repo: r.repo, Platform: r.platform, Env: r.env, Expected: r.expected, Records: r.records,
		Coverage: r.coverage, Ran: r.ran, Log: r.log, List: r.list,
		Read:      readUntrusted,
		WorkToken: func(b []byte) []byte { return replaceWorkDir(b, repo) },
	}, results)
	out := collected{results: res, definitions: defs}
	if err != nil {
		return out, err
	}
	for _, t := range out.results {
		if t.Evidence == schemas.EvidenceDenied {
			fmt.Fprintf(r.log, "[osbench: %s: %s]\n", t.ID, t.Reason)
		}
	}
	return out, nil
}

// expectedTests lists the tests a suite should report, so the parser can
// tell "never ran" (missing) and "package did not build" (build-failed) from
// "passed": the home runner of the language knows them from the restored
// test files, or nothing does (Go's alone so far).
func expectedTests(language, repo, platform string, env map[string]string) ([]string, error) {
	if h := runner.Home(language); h != nil {
		return h.Expected(repo, platform, env)
	}
	return nil, nil
}
