package engine

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/osbench/osbench/engine/cache"
)

// StepRun is one recorded run of a step, as `osbench logs` shows it: when it
// ran, how it ended, and the side artifacts (logs) it kept.
type StepRun struct {
	Step   string       `json:"step"`
	Run    string       `json:"run"`
	Time   time.Time    `json:"time"`
	Status Status       `json:"status"` // ran or failed
	Key    cache.Digest `json:"key"`
	Error  string       `json:"error,omitempty"`
	Side   []SideLog    `json:"side"`
}

// SideLog is one side artifact of a run and whether its blob is still in
// the cache.
type SideLog struct {
	Name    string       `json:"name"`
	Digest  cache.Digest `json:"digest"`
	Size    int64        `json:"size"`
	Present bool         `json:"present"`
}

// StepRuns lists the recorded runs of step id, newest first. Hits are not
// runs (a cached step shows the run that made its result). Runs recorded
// before the history kept their logs take them from the action record of
// their key, when that record is of the same outcome.
func (e *Engine) StepRuns(id string) []StepRun {
	entries := e.hist.load(id)
	out := make([]StepRun, 0, len(entries))
	for i := len(entries) - 1; i >= 0; i-- {
		h := entries[i]
		side := h.Side
		if side == nil {
			if rec, err := e.cache.GetAction(h.Key); err == nil && rec.Failed == (h.Status == StatusFailed) {
				side = rec.Side
			}
		}
		r := StepRun{Step: id, Run: h.Run, Time: h.Time, Status: h.Status, Key: h.Key, Error: h.Error, Side: []SideLog{}}
		for _, o := range side {
			r.Side = append(r.Side, SideLog{Name: o.Name, Digest: o.Digest, Size: o.Size, Present: e.cache.Has(o.Digest, o.Size)})
		}
		out = append(out, r)
	}
	return out
}

// SelectRun picks one of runs (newest first, as StepRuns gives them): "" or
// "1" is the latest, "N" the N-th latest, anything else a run ID or a
// unique prefix of one.
func SelectRun(runs []StepRun, which string) (StepRun, error) {
	if len(runs) == 0 {
		return StepRun{}, errors.New("no recorded run")
	}
	if which == "" {
		return runs[0], nil
	}
	if n, err := strconv.Atoi(which); err == nil {
		if n < 1 || n > len(runs) {
			return StepRun{}, fmt.Errorf("--run %d: %s has %d recorded runs (1 is the latest)", n, runs[0].Step, len(runs))
		}
		return runs[n-1], nil
	}
	var found []StepRun
	for _, r := range runs {
		if r.Run == which {
			return r, nil
		}
		if strings.HasPrefix(r.Run, which) {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return StepRun{}, fmt.Errorf("--run %s: no recorded run of %s has that ID (see --list)", which, runs[0].Step)
	}
	return StepRun{}, fmt.Errorf("--run %s: %d runs of %s start so (see --list)", which, len(found), runs[0].Step)
}

// ErrLogGone is returned for a log whose blob is no longer in the cache.
var ErrLogGone = errors.New("log no longer in the cache")

// SideLogBytes returns the content of a side artifact, checked against its
// digest: ErrLogGone when the blob was removed (cache gc, cache verify).
func (e *Engine) SideLogBytes(l SideLog) ([]byte, error) {
	b, err := e.cache.ReadBytes(l.Digest)
	var corrupt *cache.CorruptError
	if errors.Is(err, cache.ErrMiss) || errors.As(err, &corrupt) {
		return nil, fmt.Errorf("%w: %s (%s)", ErrLogGone, l.Name, l.Digest.Short())
	}
	return b, err
}

// AmbiguousStepError says a step query matched several recorded steps, or
// none; Candidates are the IDs worth showing.
type AmbiguousStepError struct {
	Query      string
	Candidates []string
}

func (e *AmbiguousStepError) Error() string {
	if len(e.Candidates) == 0 {
		return fmt.Sprintf("no recorded run of a step %q in this cache (steps are recorded when `osbench build` runs them)", e.Query)
	}
	if len(e.Candidates) == 1 {
		return fmt.Sprintf("%q matches one recorded step; give its ID (a glob never picks):\n  %s", e.Query, e.Candidates[0])
	}
	return fmt.Sprintf("%q matches %d recorded steps; say which:\n  %s", e.Query, len(e.Candidates), strings.Join(e.Candidates, "\n  "))
}

// ResolveStep turns a query into the ID of a step with recorded runs: the
// ID itself, else the one recorded ID it is a prefix of, else the one it is
// a substring of. Anything else — several matches, none, a glob — is an
// *AmbiguousStepError listing the candidates (a glob, where * and ? match
// any characters including /, lists what it matches and never picks).
func (e *Engine) ResolveStep(query string) (string, error) {
	if query == "" {
		return "", errors.New("empty step ID")
	}
	if len(e.hist.load(query)) > 0 {
		return query, nil
	}
	known := e.RecordedSteps()
	if strings.ContainsAny(query, "*?") {
		glob := globRegexp(query)
		var matched []string
		for _, id := range known {
			if glob.MatchString(id) {
				matched = append(matched, id)
			}
		}
		return "", &AmbiguousStepError{Query: query, Candidates: matched}
	}
	for _, match := range []func(id string) bool{
		func(id string) bool { return strings.HasPrefix(id, query) },
		func(id string) bool { return strings.Contains(id, query) },
	} {
		var found []string
		for _, id := range known {
			if match(id) {
				found = append(found, id)
			}
		}
		switch {
		case len(found) == 1:
			return found[0], nil
		case len(found) > 1:
			return "", &AmbiguousStepError{Query: query, Candidates: found}
		}
	}
	return "", &AmbiguousStepError{Query: query}
}

// RecordedSteps lists, sorted, the IDs of the steps the history holds runs
// of. Each history file is read only up to its first entry that names its
// step; files of runs recorded before entries named their step are found
// through the newest trace instead.
func (e *Engine) RecordedSteps() []string {
	seen := map[string]bool{}
	filepath.WalkDir(e.hist.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return nil
		}
		if id := firstStepOf(p); id != "" {
			seen[id] = true
		}
		return nil
	})
	for _, id := range e.newestTraceSteps() {
		if !seen[id] {
			if _, err := os.Stat(e.hist.path(id)); err == nil {
				seen[id] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

func firstStepOf(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var e struct {
			Step string `json:"step"`
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Step != "" {
			return e.Step
		}
	}
	return ""
}

func (e *Engine) newestTraceSteps() []string {
	names, _ := filepath.Glob(filepath.Join(e.cache.Dir(), "traces", "*.jsonl"))
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	f, err := os.Open(names[len(names)-1])
	if err != nil {
		return nil
	}
	defer f.Close()
	var ids []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var l struct {
			Step string `json:"step"`
		}
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Step != "" {
			ids = append(ids, l.Step)
		}
	}
	return ids
}

// globRegexp compiles a step glob: * is any run of characters, ? any one
// (both across /, since step IDs are paths of one namespace), the rest
// literal.
func globRegexp(glob string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for _, r := range glob {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}
