package maskrepo

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// Source preservation, proven rather than hoped (DESIGN §2.4): a mask may
// not delete or rewrite any line the source platform's coverage run
// executed. Each region is masked on its own first; a region whose mask
// touches such a line is rejected (not the task: the file's other regions
// still are masked), and so is a region whose mask changes nothing (a
// "placeholder" equal to the code it replaces proves nothing). Then the
// file's remaining regions are masked together and checked again, since
// two regions' placeholders may interact; if that still touches the
// source's lines, every region of the file is rejected. Regions whose edits
// overlap (each masks alone, not together) are taken in order, and one
// that cannot join those taken before it is rejected with the masker's
// reason: an overlap costs a region, not the file.
//
// Only deletions and rewrites of original lines count. A pure insertion
// (a zero-value return, "_ = x") changes no line the source ran; a line
// the source compiles but never executed may change, because no source
// test can see it.

// Rejected is a verified region the mask step did not mask, and why.
type Rejected = schemas.MaskRejected

// executedLines is the source platform's coverage: file → executed lines.
type executedLines map[string]map[int]bool

func newExecutedLines(cov schemas.Coverage) executedLines {
	ex := executedLines{}
	for _, f := range cov.Files {
		lines := make(map[int]bool, len(f.Executed))
		for _, l := range f.Executed {
			lines[l] = true
		}
		ex[f.Path] = lines
	}
	return ex
}

// maskPreserving masks one file's regions, rejecting those that would
// change what the source platform runs. It returns the masked file, the
// actions, the regions masked and the regions rejected.
func maskPreserving(ctx context.Context, m mask.Masker, file string, content []byte, regions []schemas.VerifiedRegion, coarse, soloPass bool, ran map[int]bool, dir map[string][]byte) ([]byte, []mask.Action, []schemas.VerifiedRegion, []Rejected, error) {
	maskAll := func(rs []schemas.VerifiedRegion) (mask.Output, []int, error) {
		out, err := m.Mask(ctx, mask.Input{Path: file, Source: content, Regions: rs, Coarse: coarse, Dir: dir})
		if err != nil {
			return out, nil, err
		}
		return out, touchedRan(content, out.Source, ran), nil
	}
	var rejected []Rejected
	keep := regions
	if soloPass {
		keep = nil
		for _, r := range regions {
			out, bad, err := maskAll([]schemas.VerifiedRegion{r})
			if err != nil {
				return nil, nil, nil, nil, err
			}
			switch {
			case len(bad) > 0:
				rejected = append(rejected, Rejected{Region: r, Reason: fmt.Sprintf("its placeholder would change %s, which the source platform executed", lineList(bad))})
			case bytes.Equal(out.Source, content) && masksSomething(out.Actions):
				rejected = append(rejected, Rejected{Region: r, Reason: "its placeholder is the code it replaces (a no-op mask)"})
			default:
				keep = append(keep, r)
			}
		}
	}
	if len(keep) == 0 {
		return content, nil, nil, rejected, nil
	}
	out, bad, err := maskAll(keep)
	if err != nil && soloPass && len(keep) > 1 && ctx.Err() == nil {
		// Each region masks alone but not together (their edits
		// overlap): keep, in order, every region that still masks with
		// those kept before it, and reject the others with the reason.
		var kept []schemas.VerifiedRegion
		for _, r := range keep {
			if _, bad, err := maskAll(append(append([]schemas.VerifiedRegion(nil), kept...), r)); err != nil || len(bad) > 0 {
				why := "its placeholders together with the file's other regions would change lines the source platform executed"
				if err != nil {
					why = "it cannot be masked together with the file's other regions: " + strings.TrimPrefix(err.Error(), "mask "+file+": ")
				}
				rejected = append(rejected, Rejected{Region: r, Reason: why})
				continue
			}
			kept = append(kept, r)
		}
		keep = kept
		if len(keep) == 0 {
			return content, nil, nil, rejected, nil
		}
		out, bad, err = maskAll(keep)
	}
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if len(bad) > 0 {
		for _, r := range keep {
			rejected = append(rejected, Rejected{Region: r, Reason: fmt.Sprintf("the file's placeholders together would change %s, which the source platform executed", lineList(bad))})
		}
		return content, nil, nil, rejected, nil
	}
	return out.Source, out.Actions, keep, rejected, nil
}

// masksSomething reports whether a masker claimed to mask (not to leave
// alone or skip) any region.
func masksSomething(actions []mask.Action) bool {
	for _, a := range actions {
		if a.Kind != mask.KindUnmasked && a.Kind != mask.KindSkipped {
			return true
		}
	}
	return false
}

// touchedRan returns the lines of before (1-based, ascending) that after
// deletes or rewrites and that ran says the source executed.
func touchedRan(before, after []byte, ran map[int]bool) []int {
	if len(ran) == 0 || bytes.Equal(before, after) {
		return nil
	}
	var bad []int
	for _, l := range deletedLines(splitLines(before), splitLines(after)) {
		if ran[l] {
			bad = append(bad, l)
		}
	}
	sort.Ints(bad)
	return bad
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = string(l)
	}
	return out
}

// deletedLines returns the 1-based numbers of the lines of a that a
// shortest edit script from a to b deletes (a rewritten line is a deletion
// plus an insertion). It is Myers' O((N+M)·D) algorithm: masks change few
// lines, so D is small even in large files.
func deletedLines(a, b []string) []int {
	// Common prefix and suffix are kept by every shortest script; trimming
	// them keeps the search small.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	a, b = a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(a), len(b)
	if n == 0 {
		return nil
	}
	if m == 0 {
		out := make([]int, n)
		for i := range out {
			out[i] = pre + i + 1
		}
		return out
	}
	max := n + m
	off := max
	v := make([]int, 2*max+2)
	var trace [][]int
	for d := 0; d <= max; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, off, n, m, d, pre)
			}
		}
	}
	return nil
}

// backtrack walks the saved frontiers from the end and collects the
// deleted lines of a.
func backtrack(trace [][]int, off, x, y, d, pre int) []int {
	var deleted []int
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x, y = x-1, y-1
		}
		if x > prevX { // a deletion of a[prevX]
			deleted = append(deleted, pre+prevX+1)
		}
		x, y = prevX, prevY
	}
	sort.Ints(deleted)
	return deleted
}

// lineList says "line 12" or "lines 12, 13, 20".
func lineList(lines []int) string {
	if len(lines) == 1 {
		return fmt.Sprintf("line %d", lines[0])
	}
	s := "lines "
	for i, l := range lines {
		if i == 5 {
			return s + fmt.Sprintf(" and %d more", len(lines)-5)
		}
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(l)
	}
	return s
}
