package initmanifest

import (
	"sort"
	"strings"
	"time"

	"github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all" // the skip styles
	"github.com/osbench/osbench/schemas"
)

// PlatformRun is one platform's complete test run as init reads it.
type PlatformRun struct {
	Platform string
	Tests    []schemas.TestResult
	// Log is the step's raw log, where the reasons are read.
	Log []byte
	// SkipStyle is the platform's test.skip_style: it says what name a
	// skip entry takes ("go": the top-level test, or a subtest's path from
	// it; other styles: the test's own name).
	SkipStyle string
	// Took is how long the run took (a result served from the cache: the
	// run that made it), so init served from the cache writes the same
	// manifest; Timeout and EvalTimeout are the platform's as resolved.
	Took, Timeout, EvalTimeout time.Duration
	// buildCmd is the line the log echoes before the build's output.
	buildCmd string
}

// ProposeSkips proposes, per platform, the tests to leave out there:
//   - every test that crashed (status error: a panic or a fatal error kills
//     its whole package binary, erasing that package's coverage, so it is
//     proposed whatever the other platform says);
//   - tests that fail or time out on one platform and pass on the other.
//
// A test that fails on both platforms, or exists on one only, is left
// alone: it simply never enters a label set. Build failures are not
// proposed either, since no skip makes a package compile.
func ProposeSkips(runs []PlatformRun) map[string][]Skip {
	byPlatform := map[string]map[string]schemas.Status{}
	for _, r := range runs {
		m := map[string]schemas.Status{}
		for _, t := range r.Tests {
			m[t.ID] = t.Status
		}
		byPlatform[r.Platform] = m
	}
	out := map[string][]Skip{}
	for _, r := range runs {
		reasons := readReasons(r.Log)
		panicked := panickingPackages(r.Tests, reasons)
		var ids []string
		for _, t := range r.Tests {
			if proposed(t, r.Platform, byPlatform, panicked, reasons) {
				ids = append(ids, t.ID)
			}
		}
		sort.Strings(ids)
		names := narrowToSubtests(ids, r.Tests, r.SkipStyle)
		seen := map[string]int{} // skip name → index in list
		var list []Skip
		var ranks []int
		for _, id := range ids {
			name, ok := names[id]
			if !ok {
				continue // its failing subtests are proposed instead
			}
			if name == "" {
				continue // no skip entry can name it: a package that crashed before its tests, a doctest
			}
			reason, rank := reasonFor(id, byPlatform[r.Platform], r.Platform, otherPlatform(r.Platform, runs), reasons)
			if i, ok := seen[name]; ok {
				// A parent and its subtests share one entry; the most telling
				// reason among them explains it.
				if rank > ranks[i] {
					list[i].Reason, ranks[i] = reason, rank
				}
				continue
			}
			seen[name] = len(list)
			list = append(list, Skip{Test: name, Reason: reason})
			ranks = append(ranks, rank)
		}
		if len(list) > 0 {
			sort.Slice(list, func(i, j int) bool { return list[i].Test < list[j].Test })
			out[r.Platform] = list
		}
	}
	return out
}

func proposed(t schemas.TestResult, platform string, byPlatform map[string]map[string]schemas.Status, panicked map[string]bool, reasons map[string]testOutput) bool {
	switch t.Status {
	case schemas.StatusError:
		// When the log names the tests that panicked, only those are the
		// cause; the others of that package (parents, tests waiting in
		// parallel) died with them and may well pass once it is skipped.
		if panicked[packageOf(t.ID)] {
			return reasons[t.ID].panic != "" || hasPanickingChild(t.ID, reasons)
		}
		return true
	case schemas.StatusFail, schemas.StatusTimeout:
		for p, m := range byPlatform {
			if p != platform && m[t.ID] == schemas.StatusPass {
				return true
			}
		}
	}
	return false
}

// panickingPackages are the packages (ID prefixes) in which the log shows
// a test's own panic.
func panickingPackages(tests []schemas.TestResult, reasons map[string]testOutput) map[string]bool {
	out := map[string]bool{}
	for _, t := range tests {
		if t.Status == schemas.StatusError && reasons[t.ID].panic != "" {
			out[packageOf(t.ID)] = true
		}
	}
	return out
}

func hasPanickingChild(id string, reasons map[string]testOutput) bool {
	for other, o := range reasons {
		if o.panic != "" && strings.HasPrefix(other, id+"/") {
			return true
		}
	}
	return false
}

// packageOf is the part of a test ID before its top-level test name (for
// Go IDs; other IDs give their parent path, which groups the same way).
func packageOf(id string) string {
	parts := strings.Split(id, "/")
	for i, p := range parts {
		if i > 0 && isGoTestName(p) {
			return strings.Join(parts[:i], "/")
		}
	}
	return id[:max(strings.LastIndexByte(id, '/'), 0)]
}

// narrowToSubtests names the skip entry of each proposed test ID. An entry
// is a top-level test (skipName), except where the runner can leave out a
// subtest alone and the top-level test keeps a subtest that passes on
// this platform: then its failing subtests are proposed one by one (the
// deepest that fail; their failing parents are left out of the map), so
// the cases that pass stay in the runs — and in the label sets — instead
// of going with their whole test. Only plain failures are narrowed: a
// crash or a timeout ends the whole test binary, whatever its subtests.
func narrowToSubtests(ids []string, tests []schemas.TestResult, style string) map[string]string {
	status := make(map[string]schemas.Status, len(tests))
	for _, t := range tests {
		status[t.ID] = t.Status
	}
	proposedIDs := make(map[string]bool, len(ids))
	for _, id := range ids {
		proposedIDs[id] = true
	}
	// topOf is the ID of the top-level test an ID belongs to.
	topOf := func(id string) string {
		sub := lang.SkipSubtestEntryFor(style, id)
		if sub == "" {
			return id
		}
		return strings.TrimSuffix(id, "/"+sub) + "/" + skipName(id, style)
	}
	keepsPassing := map[string]bool{} // top-level ID → a subtest of it passes
	for _, t := range tests {
		if top := topOf(t.ID); top != t.ID && t.Status == schemas.StatusPass {
			keepsPassing[top] = true
		}
	}
	failingBelow := func(id string) bool {
		for other := range proposedIDs {
			if strings.HasPrefix(other, id+"/") && status[other] == schemas.StatusFail {
				return true
			}
		}
		return false
	}
	names := make(map[string]string, len(ids))
	for _, id := range ids {
		top := topOf(id)
		narrow := keepsPassing[top] && status[id] == schemas.StatusFail && !anyCrashed(top, status)
		switch {
		case !narrow:
			names[id] = skipName(id, style)
		case failingBelow(id):
			// a parent that fails because a subtest does: the subtest's entry
			// is enough
		case id == top:
			names[id] = skipName(id, style) // fails in its own body
		default:
			names[id] = lang.SkipSubtestEntryFor(style, id)
		}
	}
	return names
}

// anyCrashed reports whether the top-level test or one of its subtests
// crashed or timed out, which takes the whole test with it.
func anyCrashed(top string, status map[string]schemas.Status) bool {
	for id, st := range status {
		if (id == top || strings.HasPrefix(id, top+"/")) && (st == schemas.StatusError || st == schemas.StatusTimeout) {
			return true
		}
	}
	return false
}

// skipName is the entry a skip list takes for a test ID: the top-level
// test for the go style ("" for a package-level result, which no -skip
// names), else the ID's last element (what osbench's runners match, see
// testrun's markSkipped).
func skipName(id, style string) string { return lang.SkipEntryFor(style, id) }

func isGoTestName(s string) bool {
	for _, prefix := range []string{"Test", "Example", "Fuzz", "Benchmark"} {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

func otherPlatform(platform string, runs []PlatformRun) string {
	for _, r := range runs {
		if r.Platform != platform {
			return r.Platform
		}
	}
	return "the other platform"
}

// reasonFor is the comment of a skip entry, and how telling it is (a
// panic's message over a failure's first line over a bare status).
func reasonFor(id string, statuses map[string]schemas.Status, platform, other string, reasons map[string]testOutput) (string, int) {
	st := statuses[id]
	o, ok := reasons[id]
	if !ok { // libtest's sections name the test without its binary
		o = reasons[id[strings.LastIndexByte(id, '/')+1:]]
	}
	if o.first == "" {
		// A Go parent says only "--- FAIL"; its first subtest with
		// output says why.
		o.first = descendantsFirst(id, statuses, reasons)
	}
	switch {
	case st == schemas.StatusError && o.panic != "":
		return "panicked: " + o.panic, 3
	case st == schemas.StatusError:
		return "crashed (the test binary died)" + suffix(o.first), 1
	case st == schemas.StatusTimeout:
		return "timed out on " + platform, 2
	case o.first != "":
		return o.first, 2
	}
	return "fails on " + platform + ", passes on " + other, 0
}

func suffix(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

func descendantsFirst(id string, statuses map[string]schemas.Status, reasons map[string]testOutput) string {
	var ids []string
	for other, o := range reasons {
		if o.first != "" && strings.HasPrefix(other, id+"/") && statuses[other] != schemas.StatusPass && statuses[other] != schemas.StatusSkip {
			ids = append(ids, other)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	sort.Strings(ids)
	return reasons[ids[0]].first
}
