package manifests

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// WriteDiagnostics prints each diagnostic as
//
//	file:line:col: severity: summary; detail
//
// followed, when the file's source is known, by the offending line and a
// marker under the offending text, like a compiler:
//
//	timeout = 10
//	          ^~
//
// Sources are looked up in sources first, then in set.Sources; set may be nil.
func WriteDiagnostics(w io.Writer, set *Set, sources map[string][]byte, diags hcl.Diagnostics) error {
	lookup := func(file string) ([]byte, bool) {
		if src, ok := sources[file]; ok {
			return src, true
		}
		if set != nil {
			src, ok := set.Sources[file]
			return src, ok
		}
		return nil, false
	}
	for _, d := range diags {
		var b strings.Builder
		if d.Subject != nil {
			b.WriteString(position(*d.Subject) + ": ")
		}
		b.WriteString(severityName(d.Severity) + ": " + d.Summary)
		if d.Detail != "" {
			// One diagnostic, one header line, so tools can grep for it.
			b.WriteString("; " + strings.Join(strings.Fields(d.Detail), " "))
		}
		b.WriteByte('\n')
		if d.Subject != nil {
			if src, ok := lookup(d.Subject.Filename); ok {
				writeSnippet(&b, src, *d.Subject)
			}
		}
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

func severityName(s hcl.DiagnosticSeverity) string {
	if s == hcl.DiagWarning {
		return "warning"
	}
	return "error"
}

// writeSnippet writes the source line where rng starts and a marker line: a
// caret under the first character of rng and tildes under the rest of it on
// that line. Tabs in front of it are copied so the marker lines up.
func writeSnippet(b *strings.Builder, src []byte, rng hcl.Range) {
	start, end := rng.Start.Byte, rng.End.Byte
	if start < 0 || start > len(src) || end < start {
		return // a range from another version of the file; print no snippet
	}
	lineStart := strings.LastIndexByte(string(src[:start]), '\n') + 1
	lineEnd := len(src)
	if i := strings.IndexByte(string(src[start:]), '\n'); i >= 0 {
		lineEnd = start + i
	}
	line := strings.TrimSuffix(string(src[lineStart:lineEnd]), "\r")
	if strings.TrimSpace(line) == "" {
		return
	}
	b.WriteString(line + "\n")

	for _, r := range string(src[lineStart:start]) {
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	stop := max(min(end, lineStart+len(line)), start)
	marked := utf8.RuneCount(src[start:stop])
	b.WriteString("^" + strings.Repeat("~", max(marked-1, 0)) + "\n")
}
