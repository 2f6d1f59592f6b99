package runner

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// Test definitions, the runners' common part: a runner's listing of what
// it runs as tests, sorted and digested, so a run whose definitions differ
// from its task's is not graded (docs/security.md, "Forging results").

// MaxListing bounds a runner's test listing osbench reads.
const MaxListing = 64 << 20

// NewDefinitions sorts defs by name and digests them.
func NewDefinitions(runner string, defs []schemas.TestDefinition) (*schemas.TestDefinitions, error) {
	sort.SliceStable(defs, func(i, j int) bool { return defs[i].Name < defs[j].Name })
	b, err := json.Marshal(defs)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	return &schemas.TestDefinitions{Runner: runner, Digest: "sha256:" + hex.EncodeToString(sum[:]), Tests: defs}, nil
}

// Unlisted are the definitions of a listing that failed: a digest no
// listing has, so a run whose listing fails where the task's did not is not
// graded, and two failed listings agree.
func Unlisted(runner string) *schemas.TestDefinitions {
	return &schemas.TestDefinitions{Runner: runner, Digest: "sha256:" + strings.Repeat("0", 64), Tests: []schemas.TestDefinition{}}
}

// ListDefinitions runs a runner's listing in the run's environment and
// parses what it printed.
func ListDefinitions(r Run, runner string, argv []string, parse func([]byte, string) (*schemas.TestDefinitions, error)) (*schemas.TestDefinitions, error) {
	var buf cappedBuffer
	res, err := r.List(argv, &buf)
	if err != nil {
		return nil, err
	}
	if res.ExitCode != 0 || res.TimedOut || buf.over {
		fmt.Fprintf(r.Log, "[osbench: %s listing failed: exit %d, timed out %v, over %d bytes %v: no test definitions]\n", runner, res.ExitCode, res.TimedOut, MaxListing, buf.over)
		return Unlisted(runner), nil
	}
	defs, err := parse(buf.Bytes(), r.Repo)
	if err != nil {
		fmt.Fprintf(r.Log, "[osbench: %v: no test definitions]\n", err)
		return Unlisted(runner), nil
	}
	return defs, nil
}

// cappedBuffer keeps the first MaxListing bytes written to it.
type cappedBuffer struct {
	bytes.Buffer
	over bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > MaxListing {
		b.over = true
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

// Deny turns a reported pass into an error the evidence contradicts.
func Deny(r *schemas.TestResult, reason string) {
	r.Status = schemas.StatusError
	r.Evidence = schemas.EvidenceDenied
	r.Reason = reason
}
