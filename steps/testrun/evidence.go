package testrun

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/schemas"
)

// Evidence that a suite ran, independent of what its processes printed,
// and the run's test definitions (docs/security.md, "Forging results"):
// per language, the channel the runner's own artifacts give.

// maxListing bounds a runner's test listing osbench reads.
const maxListing = 64 << 20

// evidenceRun is what collectEvidence needs of a finished run.
type evidenceRun struct {
	language, repo, platform string
	env                      map[string]string
	expected                 []string
	goRecords                string // the Go launcher's record directory
	coverage                 []byte // the raw coverage file the run wrote
	ran                      bool   // the build succeeded and the tests ran
	log                      io.Writer
	// list runs a listing command in the run's environment; its stdout goes
	// to out only.
	list func(argv []string, out io.Writer) (executors.Result, error)
}

type collected struct {
	results     []schemas.TestResult
	definitions *schemas.TestDefinitions
}

// collectEvidence marks results with their evidence and lists the run's
// test definitions.
func collectEvidence(r evidenceRun, results []schemas.TestResult) (collected, error) {
	out := collected{results: results}
	var err error
	switch r.language {
	case "go":
		if out.definitions, err = goDefinitions(r.expected); err != nil {
			return out, err
		}
		if !r.ran || r.goRecords == "" {
			return out, nil
		}
		_, dirs, err := goTests(r.repo, r.platform, r.env)
		if err != nil {
			return out, nil // no packages known: nothing to check against
		}
		records, err := readGoRecords(r.goRecords, r.repo)
		if err != nil {
			// The directory is gone (the tests removed it): no binary
			// is proven to have run.
			fmt.Fprintf(r.log, "[osbench: go test launcher records unreadable: %v]\n", err)
			records = map[string]goRecord{}
		}
		out.results = goEvidence(results, records, dirs)
	case "c":
		if out.definitions, err = listCTest(r); err != nil {
			return out, err
		}
		out.results = cEvidence(results, out.definitions, r.coverage)
	case "rust":
		if out.definitions, err = listCargo(r); err != nil {
			return out, err
		}
		out.results = rustEvidence(results, r.coverage)
	}
	for _, t := range out.results {
		if t.Evidence == schemas.EvidenceDenied {
			fmt.Fprintf(r.log, "[osbench: %s: %s]\n", t.ID, t.Reason)
		}
	}
	return out, nil
}

// listCTest asks CTest for the tests CMake generated, once the tests ran:
// nil when the run has no CTest build directory (another runner, a build
// that failed before configuring).
func listCTest(r evidenceRun) (*schemas.TestDefinitions, error) {
	if st, err := os.Lstat(filepath.Join(r.repo, CTestBuildDir, "CTestTestfile.cmake")); err != nil || !st.Mode().IsRegular() {
		return nil, nil
	}
	return listDefinitions(r, "ctest", ctestListArgv, ctestDefinitions)
}

// listCargo asks cargo for the packages' targets: nil when the repository
// has no Cargo.toml at its root.
func listCargo(r evidenceRun) (*schemas.TestDefinitions, error) {
	if st, err := os.Lstat(filepath.Join(r.repo, "Cargo.toml")); err != nil || !st.Mode().IsRegular() {
		return nil, nil
	}
	return listDefinitions(r, "cargo", cargoMetadataArgv, cargoDefinitions)
}

// unlisted are the definitions of a listing that failed: a digest no
// listing has, so a run whose listing fails where the task's did not is not
// graded, and two failed listings agree.
func unlisted(runner string) *schemas.TestDefinitions {
	return &schemas.TestDefinitions{Runner: runner, Digest: "sha256:" + strings.Repeat("0", 64), Tests: []schemas.TestDefinition{}}
}

// listDefinitions runs a runner's listing in the run's environment and
// parses what it printed.
func listDefinitions(r evidenceRun, runner string, argv []string, parse func([]byte, string) (*schemas.TestDefinitions, error)) (*schemas.TestDefinitions, error) {
	var buf cappedBuffer
	res, err := r.list(argv, &buf)
	if err != nil {
		return nil, err
	}
	if res.ExitCode != 0 || res.TimedOut || buf.over {
		fmt.Fprintf(r.log, "[osbench: %s listing failed: exit %d, timed out %v, over %d bytes %v: no test definitions]\n", runner, res.ExitCode, res.TimedOut, maxListing, buf.over)
		return unlisted(runner), nil
	}
	defs, err := parse(buf.Bytes(), r.repo)
	if err != nil {
		fmt.Fprintf(r.log, "[osbench: %v: no test definitions]\n", err)
		return unlisted(runner), nil
	}
	return defs, nil
}

// cappedBuffer keeps the first maxListing bytes written to it.
type cappedBuffer struct {
	bytes.Buffer
	over bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > maxListing {
		b.over = true
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
