package tamper

import (
	"path"
	"strings"
)

// commentStyle is how a file's language writes comments.
type commentStyle int

const (
	noComments    commentStyle = iota // scripts and files of unknown kinds: read whole
	slashComments                     // Go, C, C++, Rust, C#: // and /* */
	hashComments                      // CMake, TOML: # to the end of the line
)

func commentStyleOf(p string) commentStyle {
	switch {
	case languageOf(p) != "":
		return slashComments
	case isCMake(p) || path.Ext(p) == ".toml" || isCargoConfig(p):
		return hashComments
	}
	return noComments
}

// setCode fills in each line's code: its text without comments, string
// literals kept (they are where forged output lives). A comment only
// mentions things, and documentation that quotes a runner's flags or
// output is no forgery. Block comments are followed through the lines of
// a hunk, on both sides at once: an approximation that can only hide
// text inside a comment, never invent it.
func setCode(f *fileDiff) {
	style := commentStyleOf(f.path)
	inBlock, hunk := false, -1
	for i := range f.lines {
		l := &f.lines[i]
		if l.hunk != hunk {
			inBlock, hunk = false, l.hunk
		}
		switch style {
		case slashComments:
			l.code = dropSlashComments(l.text, &inBlock)
		case hashComments:
			l.code = dropHashComment(l.text)
		default:
			l.code = l.text
		}
	}
}

// dropSlashComments removes // and /* */ comments from one line; inBlock
// carries an open /* from line to line.
func dropSlashComments(s string, inBlock *bool) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case *inBlock:
			if c == '*' && i+1 < len(s) && s[i+1] == '/' {
				*inBlock = false
				i++
				b.WriteByte(' ')
			}
			continue
		case quote != 0:
			b.WriteByte(c)
			if c == '\\' && quote != '`' && i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			} else if c == quote {
				quote = 0
			}
			continue
		case c == '"' || c == '`':
			quote = c
		case c == '\'':
			// A char literal; a Rust lifetime ('a) has no closing quote
			// within a few bytes and is copied as it is.
			if j := strings.IndexByte(s[i+1:min(len(s), i+5)], '\''); j >= 0 {
				b.WriteString(s[i : i+j+2])
				i += j + 1
				continue
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			return b.String()
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			*inBlock = true
			i++
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// dropHashComment removes a # comment that is not inside a "string".
func dropHashComment(s string) string {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if quoted {
				i++
			}
		case '"':
			quoted = !quoted
		case '#':
			if !quoted {
				return s[:i]
			}
		}
	}
	return s
}
