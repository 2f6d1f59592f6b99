package initmanifest

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// The eval timeout init proposes is the first rung of a fixed ladder at
// or above evalTimeoutFactor times the first run: room for a loaded
// machine, while a hung placeholder or agent patch still costs minutes
// rather than the complete runs' limit. A ladder, not the measured time
// rounded: a first run is slowed by a cold cache and by the load of the
// moment, and a manifest should not change with them (issue 22), so the
// proposal moves only when the suite's time changes by a rung.
const evalTimeoutFactor = 3

// buildDone is the test step's line after its build command (steps/testrun):
// its duration is the build's.
var buildDone = regexp.MustCompile(`(?m)^\[osbench: build exit -?[0-9]+, timed out (?:true|false), ([^\]\s]+)\]$`)

// testPhase is how long a run's test command took: the step's time less
// its build's, read from the log. The test timeout and eval_timeout bound
// the test command alone (the build has its own budget), so a proposal
// from the whole step scaled the build too: c-ares' first Linux run took
// 13 min, nearly all of it compiling gmock at load 25, and init proposed
// an hour for a suite that runs in about one minute. took when the log
// has no build line (no build command) or its duration does not parse.
func testPhase(took time.Duration, log []byte) time.Duration {
	m := buildDone.FindSubmatch(log)
	if m == nil {
		return took
	}
	build, err := time.ParseDuration(string(m[1]))
	if err != nil || build <= 0 || build >= took {
		return took
	}
	return took - build
}

// timeoutLadder are the values init proposes, shortest first.
var timeoutLadder = []time.Duration{5 * time.Minute, 10 * time.Minute, 20 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour}

// ladderRung is the first rung at or above d, or the last.
func ladderRung(d time.Duration) time.Duration {
	for _, rung := range timeoutLadder {
		if rung >= d {
			return rung
		}
	}
	return timeoutLadder[len(timeoutLadder)-1]
}

// ProposeEvalTimeouts proposes each platform's test.eval_timeout from how
// long its first run took. The measured time only chooses the rung written
// into the manifest, which the curator reviews; it never enters a key. A
// platform whose run was served from the cache (no duration) or whose
// proposal equals what the preset gives gets none. A rung above the
// platform's timeout is not cut to it: an eval_timeout longer than the
// timeout would be dropped, so the proposal raises the timeout to the same
// rung and says so — a suite that needs it under evaluation needs it in
// its complete runs as well.
func ProposeEvalTimeouts(runs []PlatformRun) map[string]EvalTimeout {
	out := map[string]EvalTimeout{}
	for _, run := range runs {
		if run.Took <= 0 {
			continue
		}
		proposed := ladderRung(evalTimeoutFactor * run.Took)
		reason := fmt.Sprintf("eval_timeout: the first rung of %s at or above %d× the first run", ladderText(), evalTimeoutFactor)
		et := EvalTimeout{Value: formatMinutes(proposed), Reason: reason}
		if run.Timeout > 0 && proposed > run.Timeout {
			et.Timeout = et.Value
			et.Reason = fmt.Sprintf("timeout raised from %s to %s with eval_timeout, which cannot exceed it (%s)", formatMinutes(run.Timeout), et.Value, reason)
		} else if proposed == run.EvalTimeout {
			continue
		}
		out[run.Platform] = et
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// ladderText is the ladder as a manifest comment writes it: "5m/10m/…".
func ladderText() string {
	rungs := make([]string, len(timeoutLadder))
	for i, r := range timeoutLadder {
		rungs[i] = formatMinutes(r)
	}
	return strings.Join(rungs, "/")
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
