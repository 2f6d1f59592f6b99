package libtest

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// Rust evidence. The cargo preset compiles everything with
// -C instrument-coverage and exports the merged counts with llvm-cov over
// the test programs; the export lists every function with the number of
// times it was entered. A #[test] function that ran has a count; a program
// whose init section printed libtest's lines and exited never entered it
// (and if it exited with _exit, wrote no profile at all). Doctests are
// compiled by rustdoc into programs the export does not cover: no evidence
// either way.

// llvmFunctionCounts reads the function names (mangled, v0 or legacy) and
// counts of an llvm-cov JSON export. A function listed more than once (one
// per program, or per instantiation) keeps its largest count.
func llvmFunctionCounts(raw []byte) map[string]int64 {
	var export struct {
		Data []struct {
			Functions []struct {
				Name  string `json:"name"`
				Count int64  `json:"count"`
			} `json:"functions"`
		} `json:"data"`
	}
	if json.Unmarshal(raw, &export) != nil {
		return nil
	}
	counts := map[string]int64{}
	for _, d := range export.Data {
		for _, f := range d.Functions {
			if old, ok := counts[f.Name]; !ok || f.Count > old {
				counts[f.Name] = f.Count
			}
		}
	}
	return counts
}

// rustEvidence marks libtest tests that passed as having run when a
// function whose mangled path ends in the test's path was entered.
func rustEvidence(results []schemas.TestResult, raw []byte) []schemas.TestResult {
	if len(raw) == 0 {
		return results
	}
	counts := llvmFunctionCounts(raw)
	if len(counts) == 0 {
		return results
	}
	for i := range results {
		r := &results[i]
		if r.Status != schemas.StatusPass || strings.HasPrefix(r.ID, "doctest/") {
			continue
		}
		name := r.ID[strings.LastIndexByte(r.ID, '/')+1:]
		for fn, n := range counts {
			if n > 0 && manglesPath(fn, strings.Split(name, "::")) {
				r.Evidence = schemas.EvidenceRan
				break
			}
		}
	}
	return results
}

// manglesPath reports whether a mangled symbol names a path ending in
// segs: both Rust manglings (v0 "_R…" and legacy "_ZN…E") spell each
// identifier as its decimal length and its bytes, in path order, with the
// function's own name last (legacy then adds a "17h<hash>E" suffix).
func manglesPath(symbol string, segs []string) bool {
	if !strings.HasPrefix(symbol, "_R") && !strings.HasPrefix(symbol, "_ZN") {
		return false
	}
	rest := symbol
	for i, seg := range segs {
		if seg == "" {
			return false
		}
		enc := strconv.Itoa(len(seg)) + seg
		j := identIndex(rest, enc)
		if j < 0 {
			return false
		}
		rest = rest[j+len(enc):]
		if i == len(segs)-1 {
			return rest == "" || (strings.HasPrefix(rest, "17h") && strings.HasSuffix(rest, "E") && len(rest) == 20)
		}
	}
	return false
}

// identIndex finds enc in s where it is a whole length-prefixed identifier:
// not preceded by a digit (which would make the length another number).
func identIndex(s, enc string) int {
	for off := 0; ; {
		j := strings.Index(s[off:], enc)
		if j < 0 {
			return -1
		}
		j += off
		if j == 0 || s[j-1] < '0' || s[j-1] > '9' {
			return j
		}
		off = j + 1
	}
}
