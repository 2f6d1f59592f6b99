package engine

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/osbench/osbench/engine/cache"
)

// Verifying the cache (Options.VerifyCache, Go's GODEBUG=gocacheverify
// idea): a sampled hit is run again in a fresh work dir and its results
// compared with the cached ones. A difference is nondeterminism — a step
// whose results depend on something outside its key, or a flaky test — and
// is reported (StepResult.Verify); it never replaces the cached record, so
// the build goes on with what every earlier consumer saw.

// sampled reports whether the hit with key k is among the fraction of hits
// VerifyCache asks to rerun. The choice is a function of the key, so the
// same sample is drawn on every machine and every run.
func (e *Engine) sampled(k cache.Digest) bool {
	f := e.opts.VerifyCache
	if f <= 0 {
		return false
	}
	if f >= 1 {
		return true
	}
	b, err := hex.DecodeString(string(k[:16]))
	if err != nil {
		return false
	}
	return float64(binary.BigEndian.Uint64(b))/float64(^uint64(0)) < f
}

// verifyHit reruns a hit and says how its results compare with rec's.
func (e *Engine) verifyHit(ctx context.Context, s *Step, inputs map[string]*cache.ActionRecord, res *StepResult, rec *cache.ActionRecord) {
	k, _ := LookupKind(s.Kind)
	rc, err := e.runOnce(ctx, k, s, inputs)
	if err != nil {
		res.Verify = VerifyRerunFailed + ": " + firstLine(err.Error())
		return
	}
	again := rc.record(res.Key)
	if again.OutputDigest == rec.OutputDigest {
		res.Verify = VerifySame
		return
	}
	res.Verify = VerifyDiffers + ": " + resultDiff(rec.Results, again.Results)
	e.opts.Log.Warn().Str("step", s.ID).Str("differs", res.Verify).Msg("nondeterministic step: a rerun of a cache hit gave other results; the cached ones are kept")
}

// The outcomes of verifying a hit.
const (
	VerifySame        = "same"
	VerifyDiffers     = "differs"
	VerifyRerunFailed = "rerun failed"
)

// resultDiff names the results whose digests differ between two runs.
func resultDiff(cached, rerun []cache.Output) string {
	byName := map[string]cache.Digest{}
	for _, o := range cached {
		byName[o.Name] = o.Digest
	}
	seen := map[string]bool{}
	var parts []string
	for _, o := range rerun {
		seen[o.Name] = true
		if d, ok := byName[o.Name]; !ok {
			parts = append(parts, o.Name+" (new)")
		} else if d != o.Digest {
			parts = append(parts, fmt.Sprintf("%s (cached %s, rerun %s)", o.Name, d.Short(), o.Digest.Short()))
		}
	}
	for name := range byName {
		if !seen[name] {
			parts = append(parts, name+" (gone)")
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// Nondeterministic lists the hits whose rerun gave other results.
func (r *Report) Nondeterministic() []*StepResult {
	var out []*StepResult
	for _, s := range r.Steps {
		if strings.HasPrefix(s.Verify, VerifyDiffers) {
			out = append(out, s)
		}
	}
	return out
}
