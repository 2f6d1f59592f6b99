// Package tamperscan is the "tamper-scan" step kind of an evaluation: the
// static scan of an agent's patch for forgery patterns (plugins/tamper),
// recorded as scan.json. Its findings go into the prediction's report as
// tamper_suspected and tamper_findings, evidence for people beside the
// verdict, never part of it.
//
// The step is keyed by the patch's digest and the rule set's version and
// by nothing of the task: the same patch is scanned once whatever task or
// model it came with, and a change of rules rescans every patch and
// reruns nothing else.
package tamperscan

import (
	"context"
	"fmt"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/plugins/tamper"
	"github.com/osbench/osbench/schemas"
)

// Kind is the step kind's name.
const Kind = "tamper-scan"

// Output is the scan.json result (schemas.TamperScan).
const Output = "scan.json"

// Config is the scan step's configuration.
type Config struct {
	// Patch is the hex SHA-256 of the patch, stored in the cache by the
	// caller.
	Patch string `json:"patch"`
	// Rules is the rule set's version (tamper.Version), so that it is in
	// the step's key.
	Rules string `json:"rules"`
}

// Fields is the configuration of the scan of the patch stored under
// digest, by the current rule set; where says where the patch came from.
func Fields(digest, where string) []engine.Field {
	return engine.Fields(Config{Patch: digest, Rules: tamper.Version}, func(field string) string {
		if field == "patch" {
			return where
		}
		return ""
	})
}

type kind struct{}

func init() { engine.RegisterKind(kind{}) }

func (kind) Name() string    { return Kind }
func (kind) Version() string { return "1" }

func (kind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	if cfg.Rules != tamper.Version {
		// A key computed for other rules must not hold this rule set's
		// findings.
		return fmt.Errorf("scan configured for rule set %q, but this osbench has %q", cfg.Rules, tamper.Version)
	}
	patch, err := rc.Blob(cache.Digest(cfg.Patch))
	if err != nil {
		return fmt.Errorf("patch: %w", err)
	}
	res := schemas.TamperScan{Rules: tamper.Version, Findings: tamper.Scan(patch)}
	rc.SetLabel(label(res))
	return rc.PutJSON(Output, res)
}

// label is the short summary shown with the step.
func label(res schemas.TamperScan) string {
	switch n := len(res.Findings); n {
	case 0:
		return "clean"
	case 1:
		return "tamper suspected: 1 finding (" + res.Findings[0].Rule + ")"
	default:
		return fmt.Sprintf("tamper suspected: %d findings", n)
	}
}
