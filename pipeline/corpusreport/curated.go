package corpusreport

import "strings"

// WithCurated returns the generated table md followed by the curated
// sections of the file it replaces, old: everything from old's first
// second-level heading ("## ...") on. The table writes no such heading,
// so a section a person keeps in docs/corpus.md (the curator's first day
// with each new repository: did init's manifest build tasks unedited,
// what had to be edited) survives `make corpus`, which rewrites the rest.
func WithCurated(md, old string) string {
	i := curatedStart(old)
	if i < 0 {
		return md
	}
	return strings.TrimRight(md, "\n") + "\n\n" + old[i:]
}

// curatedStart is the offset of the first line of s that starts with
// "## ", or -1.
func curatedStart(s string) int {
	for off := 0; off < len(s); {
		if strings.HasPrefix(s[off:], "## ") {
			return off
		}
		nl := strings.IndexByte(s[off:], '\n')
		if nl < 0 {
			break
		}
		off += nl + 1
	}
	return -1
}
