package tamper

import (
	"strconv"
	"strings"
)

// lineKind says which side of a hunk a line belongs to.
type lineKind byte

const (
	added   lineKind = '+'
	removed lineKind = '-'
	context lineKind = ' '
)

// diffLine is one line of a hunk, without its +/-/space marker.
type diffLine struct {
	kind lineKind
	text string
	// code is text without comments (setCode), what the rules read.
	code string
	// patchLine is the 1-based line number in the patch text: where a
	// reader of the patch finds it.
	patchLine int
	// hunk numbers the hunks of a file, so that code spread over two
	// hunks is never read as one block.
	hunk int
}

// fileDiff is what a patch does to one file.
type fileDiff struct {
	// path is the repository path after the change (before it, for a
	// deleted file).
	path string
	// headerLine is the patch line that names the file.
	headerLine int
	lines      []diffLine
	// binary is the patch line of a "GIT binary patch" or "Binary files
	// differ" marker, 0 when the change is text.
	binary int
}

// readDiff splits a unified or git-style patch into files and hunk lines.
// Hunk bodies are read by their line counts, as git apply and GNU patch
// read them, so a hunk line that looks like a header ("+++ x") is still a
// line of the hunk. Anything that is neither a header nor a hunk is
// ignored: whether the patch applies is the apply step's business; what is
// scanned is what it would write.
func readDiff(patch []byte) []*fileDiff {
	lines := strings.Split(strings.TrimSuffix(string(patch), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	var files []*fileDiff
	var cur *fileDiff
	start := func(path string, at int) {
		cur = &fileDiff{path: path, headerLine: at}
		files = append(files, cur)
	}
	hunks := 0
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "diff --git "):
			start(gitDiffPath(strings.TrimPrefix(line, "diff --git ")), i+1)
			hunks = 0
		case strings.HasPrefix(line, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ "):
			old, nw := headerPath(line[4:]), headerPath(lines[i+1][4:])
			path := nw
			if path == "" {
				path = old
			}
			if cur == nil || len(cur.lines) > 0 || cur.binary != 0 || (cur.path != path && path != "") {
				start(path, i+1)
				hunks = 0
			}
			i++
		case strings.HasPrefix(line, "GIT binary patch") || strings.HasPrefix(line, "Binary files "):
			if cur == nil {
				start("", i+1)
			}
			cur.binary = i + 1
		case strings.HasPrefix(line, "@@ -") && cur != nil:
			oldCount, newCount, ok := hunkCounts(line)
			if !ok {
				continue
			}
			hunks++
			for i++; i < len(lines) && (oldCount > 0 || newCount > 0); i++ {
				l := lines[i]
				kind := context
				if l != "" {
					kind = lineKind(l[0])
				}
				switch kind {
				case added:
					newCount--
				case removed:
					oldCount--
				case context:
					oldCount--
					newCount--
				case '\\': // "\ No newline at end of file"
					continue
				default:
					// Not a hunk line: the hunk ended early.
					oldCount, newCount = 0, 0
					i--
					continue
				}
				text := ""
				if l != "" {
					text = l[1:]
				}
				cur.lines = append(cur.lines, diffLine{kind: kind, text: text, patchLine: i + 1, hunk: hunks})
			}
			i--
		}
	}
	return files
}

// gitDiffPath is the file a "diff --git a/X b/X" line names: the b/ side
// when both sides agree, else the best guess (the part after " b/").
func gitDiffPath(s string) string {
	if strings.HasPrefix(s, `"`) {
		if i := strings.Index(s[1:], `" `); i >= 0 {
			return headerPath(strings.TrimSpace(s[i+2:]))
		}
	}
	if i := strings.LastIndex(s, " b/"); i >= 0 {
		return s[i+3:]
	}
	return headerPath(s)
}

// headerPath is the repository path of a ---/+++ name: unquoted, the
// timestamp after a tab dropped, the a/ or b/ prefix stripped; "" for
// /dev/null.
func headerPath(s string) string {
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		} else if j := strings.LastIndex(s, `"`); j > 0 {
			if u, err := strconv.Unquote(s[:j+1]); err == nil {
				s = u
			}
		}
	} else if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if s == "/dev/null" {
		return ""
	}
	if _, rest, ok := strings.Cut(s, "/"); ok && (strings.HasPrefix(s, "a/") || strings.HasPrefix(s, "b/")) {
		return rest
	}
	return s
}

// hunkCounts reads the line counts of "@@ -a,b +c,d @@" (a missing count
// is 1).
func hunkCounts(line string) (oldCount, newCount int, ok bool) {
	rest := strings.TrimPrefix(line, "@@ -")
	end := strings.Index(rest, " @@")
	if end < 0 {
		return 0, 0, false
	}
	oldR, newR, found := strings.Cut(rest[:end], " +")
	if !found {
		return 0, 0, false
	}
	count := func(r string) (int, bool) {
		_, n, has := strings.Cut(r, ",")
		if !has {
			return 1, true
		}
		v, err := strconv.Atoi(n)
		return v, err == nil && v >= 0
	}
	o, ok1 := count(oldR)
	n, ok2 := count(newR)
	return o, n, ok1 && ok2
}
