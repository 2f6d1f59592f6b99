package initmanifest

import (
	"fmt"
	"time"
)

// The eval timeout init proposes is the first of minEvalTimeout, twice
// that, four times … that is at least evalTimeoutFactor times the first
// run, and at most the platform's timeout: room for a loaded machine, while
// a hung placeholder or agent patch still costs minutes rather than the
// complete runs' limit. The fixed set (5m, 10m, 20m, 40m …) keeps the
// proposal the same for a run that took up to twice as long on a loaded
// machine, so init's manifest does not change with the load.
const (
	evalTimeoutFactor = 3
	minEvalTimeout    = 5 * time.Minute
)

// ProposeEvalTimeouts proposes each platform's test.eval_timeout from how
// long its first run took. The measured time only chooses the value written
// into the manifest, which the curator reviews; it never enters a key. A
// platform whose run was served from the cache (no duration) or whose
// proposal equals what the preset gives gets none.
func ProposeEvalTimeouts(runs []PlatformRun) map[string]EvalTimeout {
	out := map[string]EvalTimeout{}
	for _, run := range runs {
		if run.Took <= 0 {
			continue
		}
		proposed := minEvalTimeout
		for proposed < evalTimeoutFactor*run.Took {
			proposed *= 2
		}
		if run.Timeout > 0 {
			proposed = min(proposed, run.Timeout)
		}
		if proposed == run.EvalTimeout {
			continue
		}
		out[run.Platform] = EvalTimeout{
			Value:  formatMinutes(proposed),
			Reason: fmt.Sprintf("eval_timeout: %d× the first run, rounded up to %s, twice that, four times …", evalTimeoutFactor, formatMinutes(minEvalTimeout)),
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// formatMinutes writes a whole number of minutes the way manifests do
// ("3m", "1h30m"), not time.Duration's "3m0s".
func formatMinutes(d time.Duration) string {
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case h == 0:
		return fmt.Sprintf("%dm", m)
	case m == 0:
		return fmt.Sprintf("%dh", h)
	}
	return fmt.Sprintf("%dh%dm", h, m)
}
