package cfamily

import (
	"fmt"
	"sort"
	"strings"
)

// C and C++ placeholders that would be loud in ways a zero value cannot
// show: a clock that stops (a wait loop on it never ends: the masked suite
// hangs until its timeout) and a resource that is never released (a file
// left open, memory never freed, a handle leaked into the next test). The
// rules refuse such a region rather than mask it: it costs its own region,
// not the task.

// cTimeTypes are result types that make a function a clock.
var cTimeTypes = map[string]bool{
	"timeval": true, "timespec": true, "time_t": true, "clock_t": true, "suseconds_t": true,
	"FILETIME": true, "SYSTEMTIME": true, "LARGE_INTEGER": true, "ULARGE_INTEGER": true,
}

// cClockWords in a function's name make it a clock (hrtime, get_time,
// clock_gettime wrappers, GetTickCount wrappers, now()).
var cClockWords = []string{"time", "clock", "tick", "now"}

// cCleanupCalls release what an earlier call acquired.
var cCleanupCalls = map[string]bool{
	"fclose": true, "free": true, "close": true, "closesocket": true, "closedir": true, "pclose": true,
	"munmap": true, "dlclose": true, "CloseHandle": true, "FindClose": true, "RegCloseKey": true,
	"LocalFree": true, "GlobalFree": true, "HeapFree": true, "UnmapViewOfFile": true, "FreeLibrary": true,
	"DeleteCriticalSection": true, "pthread_mutex_destroy": true,
}

// clockReason says why fn is a clock, or "" when it is not: its result is
// a time type, or its name says it reads a clock.
func clockReason(fn *cfunc) string {
	for _, w := range fn.result {
		if cTimeTypes[w] {
			return fmt.Sprintf("function %s returns %s: a placeholder would freeze the clock, and waits on it would hang", fn.name, strings.Join(fn.result, " "))
		}
	}
	name := strings.ToLower(fn.name)
	for _, w := range cClockWords {
		if strings.Contains(name, w) {
			return fmt.Sprintf("function %s reads a clock (its name says %q): a placeholder would freeze time, and waits on it would hang", fn.name, w)
		}
	}
	return ""
}

// droppedCleanup returns the first cleanup call among tokens [lo, hi)
// whose resource outlives the removed code — its first argument is a
// parameter of fn or is named in fn outside [lo, hi) — spelled "fclose(f)",
// or "" when there is none.
func (m *cMasker) droppedCleanup(fn *cfunc, lo, hi int) string {
	toks := m.f.lx.tokens
	for i := lo; i+1 < hi; i++ {
		if !cCleanupCalls[toks[i].text] || toks[i+1].text != "(" {
			continue
		}
		if i > 0 && (toks[i-1].text == "." || toks[i-1].text == "->" || toks[i-1].text == "::") {
			continue
		}
		arg := ""
		for j := i + 2; j < hi && toks[j].text != ")" && toks[j].text != ","; j++ {
			if isCIdent(toks[j].text) {
				arg = toks[j].text
				break
			}
		}
		if arg == "" {
			continue
		}
		if m.namedOutside(fn, arg, lo, hi) {
			return toks[i].text + "(" + arg + ")"
		}
	}
	return ""
}

// namedOutside reports whether name is a parameter of fn or appears in its
// body outside the tokens [lo, hi).
func (m *cMasker) namedOutside(fn *cfunc, name string, lo, hi int) bool {
	for _, p := range fn.params {
		if p == name {
			return true
		}
	}
	toks := m.f.lx.tokens
	for i := fn.open + 1; i < fn.close && i < len(toks); i++ {
		if (i < lo || i >= hi) && toks[i].text == name {
			return true
		}
	}
	return false
}

// refusal says why the tokens [lo, hi) of fn must not be masked (fn is a
// clock, or they release a resource that outlives them), or "".
func (m *cMasker) refusal(fn *cfunc, lo, hi int) string {
	if why := clockReason(fn); why != "" {
		return why
	}
	if call := m.droppedCleanup(fn, lo, hi); call != "" {
		return fmt.Sprintf("function %s: the masked code calls %s, and a placeholder must not leak what it releases", fn.name, call)
	}
	return ""
}

// dropNestedEdits removes the edits that lie wholly inside another: two
// regions of one function (its whole body in one, a statement of it in
// the other) mask the same text, and the outer placeholder is the coarser
// mask of both.
func dropNestedEdits(edits []edit) []edit {
	sorted := append([]edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Start != sorted[j].Start {
			return sorted[i].Start < sorted[j].Start
		}
		return sorted[i].End > sorted[j].End
	})
	var out []edit
	for _, e := range sorted {
		if n := len(out); n > 0 && out[n-1].Start <= e.Start && e.End <= out[n-1].End && e.Start < out[n-1].End {
			continue
		}
		out = append(out, e)
	}
	return out
}
