package patchapply

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// modeSymlink is the mode git records for a symbolic link.
const modeSymlink = "120000"

// maxLinkTarget bounds the postimage kept for a symbolic link the patch
// writes: a link target is a path, never megabytes.
const maxLinkTarget = 4096

// maxSplits bounds the spaces of an unquoted "diff --git" line, each a
// way to split it into two names that must all be judged: a hostile line
// of a million spaces would otherwise cost a million names of a megabyte.
const maxSplits = 256

// name is one file name a patch header mentions.
type name struct {
	// Raw is the name as written (unquoted), prefix and all: what the
	// safety rules judge, so nothing a tool might make of it escapes them.
	Raw string
	// Path is the repository path: Raw without its first component (the
	// a/ or b/ that `git apply` and `patch -p1` strip), or Raw itself for
	// the rename and copy lines, which git writes without a prefix.
	Path string
}

// fileChange is what a patch's headers say about one file.
type fileChange struct {
	// Names are every name the headers of this file mention, in order.
	Names []name
	// Old and New are the repository paths before and after; "" when the
	// file is created (Old) or deleted (New), or the patch does not say.
	Old, New string
	// OldMode and NewMode are git's octal modes, "" when not stated.
	OldMode, NewMode string
	// Hunks counts the text hunks.
	Hunks int
	// Postimage is the text the hunks leave, kept only for a file whose
	// new mode is a symbolic link: it is the link's target.
	Postimage []string
	// LinkTooLong is set when that postimage exceeds maxLinkTarget.
	LinkTooLong bool
	// postimageNoEOL records a "\ No newline" marker after the last
	// postimage line.
	postimageNoEOL bool
}

// LinkTarget is the target of the symbolic link the change writes.
func (f *fileChange) LinkTarget() string {
	t := strings.Join(f.Postimage, "\n")
	if len(f.Postimage) > 0 && !f.postimageNoEOL {
		t += "\n"
	}
	return t
}

// CreatesLink reports whether the change leaves a symbolic link at New.
func (f *fileChange) CreatesLink() bool {
	return f.New != "" && f.NewMode == modeSymlink
}

// Paths are the distinct repository paths the change touches.
func (f *fileChange) Paths() []string {
	var paths []string
	for _, n := range f.Names {
		if n.Path != "" && !slices.Contains(paths, n.Path) {
			paths = append(paths, n.Path)
		}
	}
	return paths
}

// patchHeaders is what parsePatch reads from a whole patch.
type patchHeaders struct {
	Files []*fileChange
	// Stray are names found where a header could start inside a hunk (a
	// removed line "-- x" followed by an added "++ y"). They are not files,
	// but a tool that counts hunk lines differently could read them as
	// headers, so the safety rules judge them too.
	Stray []name
}

// parsePatch reads the file headers of a unified or git-style patch:
// "diff --git" lines and their extended headers, "---"/"+++" pairs, and
// "Index:" lines, which GNU patch also takes names from. Hunk bodies are
// skipped by their line counts, as git and GNU patch read them. Lines that
// are none of these are ignored; whether the patch applies is for the
// tools to say. An error means a header could not be read (a badly quoted
// name): such a patch must not reach the tools.
func parsePatch(patch []byte) (*patchHeaders, error) {
	lines := splitLines(patch)
	h := &patchHeaders{}
	var cur *fileChange
	// gitHeader is true while cur is a "diff --git" file whose ---/+++
	// lines may still follow.
	gitHeader := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		// GNU patch finds headers behind leading blanks (and the X of some
		// mail quoting); so must the rules, or an indented name would
		// reach it unjudged.
		t := strings.TrimLeft(line, " \tX")
		switch {
		case strings.HasPrefix(t, "diff --git "):
			cur = &fileChange{}
			h.Files = append(h.Files, cur)
			gitHeader = true
			names, ambiguous, err := parseGitDiffLine(strings.TrimPrefix(t, "diff --git "))
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", i+1, err)
			}
			if ambiguous {
				h.Stray = append(h.Stray, names...)
				continue
			}
			cur.Names = append(cur.Names, names...)
			if names[0].Path == names[1].Path {
				cur.Old, cur.New = names[0].Path, names[1].Path
			}
		case strings.HasPrefix(t, "--- ") && i+1 < len(lines) && strings.HasPrefix(strings.TrimLeft(lines[i+1], " \tX"), "+++ "):
			if !gitHeader || cur == nil {
				cur = &fileChange{}
				h.Files = append(h.Files, cur)
			}
			gitHeader = false
			old, err := parseHeaderName(strings.TrimPrefix(t, "--- "))
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", i+1, err)
			}
			nw, err := parseHeaderName(strings.TrimPrefix(strings.TrimLeft(lines[i+1], " \tX"), "+++ "))
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", i+2, err)
			}
			i++
			cur.Old, cur.New = old.Path, nw.Path
			for _, n := range []name{old, nw} {
				if n.Raw != "" {
					cur.Names = append(cur.Names, n)
				}
			}
		case strings.HasPrefix(line, "@@ -") && cur != nil:
			gitHeader = false
			oldCount, newCount, ok := parseHunkHeader(line)
			if !ok {
				continue
			}
			cur.Hunks++
			i = skipHunk(lines, i+1, oldCount, newCount, cur, h) - 1
		case strings.HasPrefix(t, "Index: ") || strings.HasPrefix(t, "*** ") || strings.HasPrefix(t, "--- ") || strings.HasPrefix(t, "+++ "):
			// GNU patch may take a name from any of these (an Index line,
			// a context diff's "***", an unpaired ---/+++); they are judged,
			// not listed as files.
			_, rest, _ := strings.Cut(t, " ")
			n, err := parseHeaderName(rest)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", i+1, err)
			}
			if n.Raw != "" {
				h.Stray = append(h.Stray, n)
			}
		case gitHeader:
			if err := parseExtendedHeader(cur, line); err != nil {
				return nil, fmt.Errorf("line %d: %w", i+1, err)
			}
		}
	}
	return h, nil
}

// splitLines splits a patch into lines without their "\n" or "\r\n".
func splitLines(b []byte) []string {
	b = bytes.TrimSuffix(b, []byte("\n"))
	if len(b) == 0 {
		return nil
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// parseExtendedHeader reads one line of a "diff --git" header block.
func parseExtendedHeader(f *fileChange, line string) error {
	word := func(prefix string) (string, bool) {
		if !strings.HasPrefix(line, prefix) {
			return "", false
		}
		return strings.TrimSpace(strings.TrimPrefix(line, prefix)), true
	}
	plainName := func(prefix string) (name, bool, error) {
		if !strings.HasPrefix(line, prefix) {
			return name{}, false, nil
		}
		raw, err := unquoteName(strings.TrimPrefix(line, prefix))
		return name{Raw: raw, Path: raw}, true, err
	}
	if m, ok := word("new file mode "); ok {
		f.NewMode, f.Old = m, ""
		return nil
	}
	if m, ok := word("deleted file mode "); ok {
		f.OldMode, f.New = m, ""
		return nil
	}
	if m, ok := word("old mode "); ok {
		f.OldMode = m
		return nil
	}
	if m, ok := word("new mode "); ok {
		f.NewMode = m
		return nil
	}
	if rest, ok := word("index "); ok {
		// "index <old>..<new> <mode>": the mode is both sides' when given.
		if fields := strings.Fields(rest); len(fields) == 2 {
			if f.OldMode == "" {
				f.OldMode = fields[1]
			}
			if f.NewMode == "" {
				f.NewMode = fields[1]
			}
		}
		return nil
	}
	for _, p := range []struct {
		prefix string
		old    bool
	}{{"rename from ", true}, {"rename to ", false}, {"copy from ", true}, {"copy to ", false}} {
		n, ok, err := plainName(p.prefix)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		f.Names = append(f.Names, n)
		if p.old {
			f.Old = n.Path
		} else {
			f.New = n.Path
		}
		return nil
	}
	return nil
}

// parseGitDiffLine reads the two names of a "diff --git" line (after the
// prefix). Unquoted names may contain spaces, so the split can be
// ambiguous: git takes the split whose two names agree once stripped.
// When none agrees, every split's names are returned with ambiguous set,
// to be judged though they name no file; the rename or ---/+++ lines then
// say which file it is.
func parseGitDiffLine(s string) (names []name, ambiguous bool, err error) {
	if strings.HasPrefix(s, `"`) {
		first, rest, err := cutQuoted(s)
		if err != nil {
			return nil, false, err
		}
		second, err := unquoteName(strings.TrimLeft(rest, " "))
		if err != nil {
			return nil, false, err
		}
		return []name{prefixed(first), prefixed(second)}, false, nil
	}
	if i := strings.Index(s, ` "`); i >= 0 && strings.HasSuffix(s, `"`) {
		if second, err := unquoteName(s[i+1:]); err == nil {
			return []name{prefixed(s[:i]), prefixed(second)}, false, nil
		}
	}
	if strings.Count(s, " ") > maxSplits {
		return nil, false, fmt.Errorf("diff --git line with more than %d spaces", maxSplits)
	}
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			continue
		}
		a, b := prefixed(s[:i]), prefixed(s[i+1:])
		if a.Path == b.Path && a.Path != "" {
			return []name{a, b}, false, nil
		}
		names = append(names, a, b)
	}
	return append(names, prefixed(s)), true, nil
}

// parseHeaderName reads the name of a "---", "+++" or "Index:" line:
// quoted, or up to the first tab (a timestamp may follow). "/dev/null"
// gives the zero name.
func parseHeaderName(s string) (name, error) {
	var raw string
	if strings.HasPrefix(s, `"`) {
		q, _, err := cutQuoted(s)
		if err != nil {
			return name{}, err
		}
		raw = q
	} else {
		raw, _, _ = strings.Cut(s, "\t")
		raw = strings.TrimRight(raw, " ")
	}
	if raw == "/dev/null" {
		return name{}, nil
	}
	return prefixed(raw), nil
}

// prefixed makes a name whose repository path drops the first component,
// as -p1 does.
func prefixed(raw string) name {
	_, rest, ok := strings.Cut(raw, "/")
	if !ok {
		return name{Raw: raw, Path: raw}
	}
	return name{Raw: raw, Path: strings.TrimLeft(rest, "/")}
}

// unquoteName reads a whole name that may be quoted as git quotes names.
func unquoteName(s string) (string, error) {
	if !strings.HasPrefix(s, `"`) {
		return s, nil
	}
	q, rest, err := cutQuoted(s)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(rest) != "" {
		return "", fmt.Errorf("text after quoted name %s", strconv.Quote(s))
	}
	return q, nil
}

// cutQuoted unquotes the C-style quoted string at the start of s (git's
// quoting: \a \b \t \n \v \f \r \" \\ and three-digit octal bytes) and
// returns it and what follows the closing quote.
func cutQuoted(s string) (string, string, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			return b.String(), s[i+1:], nil
		case '\\':
			i++
			if i == len(s) {
				return "", "", fmt.Errorf("unterminated quoted name %s", strconv.Quote(s))
			}
			if e, ok := quoteEscapes[s[i]]; ok {
				b.WriteByte(e)
				continue
			}
			if i+3 <= len(s) {
				if v, err := strconv.ParseUint(s[i:i+3], 8, 8); err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			return "", "", fmt.Errorf("bad escape in quoted name %s", strconv.Quote(s))
		default:
			b.WriteByte(c)
		}
	}
	return "", "", fmt.Errorf("unterminated quoted name %s", strconv.Quote(s))
}

var quoteEscapes = map[byte]byte{'a': '\a', 'b': '\b', 't': '\t', 'n': '\n', 'v': '\v', 'f': '\f', 'r': '\r', '"': '"', '\\': '\\'}

// parseHunkHeader reads the line counts of "@@ -a[,b] +c[,d] @@" (a count
// left out is 1).
func parseHunkHeader(line string) (oldCount, newCount int, ok bool) {
	fields := strings.Fields(line)
	if len(fields) < 4 || fields[0] != "@@" || fields[3] != "@@" || !strings.HasPrefix(fields[1], "-") || !strings.HasPrefix(fields[2], "+") {
		return 0, 0, false
	}
	count := func(r string) (int, bool) {
		_, n, found := strings.Cut(r[1:], ",")
		if !found {
			return 1, true
		}
		v, err := strconv.Atoi(n)
		return v, err == nil && v >= 0
	}
	oldCount, ok1 := count(fields[1])
	newCount, ok2 := count(fields[2])
	return oldCount, newCount, ok1 && ok2
}

// skipHunk consumes a hunk body starting at lines[i] and returns the index
// of the first line after it. It keeps the postimage of a file that
// becomes a symbolic link, and notes stray header-like pairs.
func skipHunk(lines []string, i, oldCount, newCount int, f *fileChange, h *patchHeaders) int {
	keep := f.NewMode == modeSymlink
	size := 0
	for ; i < len(lines) && (oldCount > 0 || newCount > 0 || strings.HasPrefix(lines[i], `\`)); i++ {
		line := lines[i]
		if strings.HasPrefix(line, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ ") {
			for _, l := range lines[i : i+2] {
				if n, err := parseHeaderName(l[4:]); err == nil && n.Raw != "" {
					h.Stray = append(h.Stray, n)
				}
			}
		}
		var op byte = ' ' // git reads an empty line as empty context
		if line != "" {
			op = line[0]
		}
		text := ""
		if len(line) > 1 {
			text = line[1:]
		}
		switch op {
		case ' ':
			oldCount--
			newCount--
		case '-':
			oldCount--
			continue
		case '+':
			newCount--
		case '\\':
			if keep && len(f.Postimage) > 0 && (i == 0 || !strings.HasPrefix(lines[i-1], "-")) {
				f.postimageNoEOL = true
			}
			continue
		default:
			return i // a corrupt hunk ends here; the tools will say so
		}
		if keep {
			if size += len(text) + 1; size > maxLinkTarget {
				f.LinkTooLong, f.Postimage, keep = true, nil, false
				continue
			}
			f.Postimage = append(f.Postimage, text)
			f.postimageNoEOL = false
		}
	}
	return i
}
