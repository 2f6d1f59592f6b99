package rust_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang/srcedit"
	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// checkChangedLines fails t unless masked differs from src only within
// the region lines: the runs of lines outside every region come out
// unchanged, in order, the first as a prefix and the last as a suffix.
func checkChangedLines(t *testing.T, src, masked []byte, regions [][2]int) {
	t.Helper()
	if why := changedOutside(string(src), string(masked), regions); why != "" {
		t.Errorf("masking changed lines outside the regions %v: %s\n--- masked:\n%s", regions, why, masked)
	}
}

func changedOutside(src, masked string, regions [][2]int) string {
	lines := strings.SplitAfter(src, "\n")
	inRegion := func(n int) bool {
		for _, r := range regions {
			if r[0] <= n && n <= r[1] {
				return true
			}
		}
		return false
	}
	// The runs of lines outside the regions, and whether a region line
	// precedes each.
	var runs []string
	var run strings.Builder
	for i, l := range lines {
		if inRegion(i + 1) {
			runs = append(runs, run.String())
			run.Reset()
			continue
		}
		run.WriteString(l)
	}
	runs = append(runs, run.String())
	if !strings.HasPrefix(masked, runs[0]) {
		return "the lines before the first region changed"
	}
	if !strings.HasSuffix(masked, runs[len(runs)-1]) {
		return "the lines after the last region changed"
	}
	at := len(runs[0])
	for _, r := range runs[1 : len(runs)-1] {
		k := strings.Index(masked[at:], r)
		if k < 0 {
			return "the lines " + strings.TrimSpace(firstLine(r)) + "… changed"
		}
		at += k + len(r)
	}
	if at > len(masked)-len(runs[len(runs)-1]) && len(runs) > 1 {
		return "the lines between regions changed"
	}
	return ""
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// bodyLines finds the lines a function-body action replaced in its detail.
var bodyLines = regexp.MustCompile(`lines (\d+)-(\d+) replaced`)

// FuzzMaskRust masks arbitrary text as Rust: it must never panic, and a
// fine mask of a file the source compiles too changes nothing outside the
// region's lines.
func FuzzMaskRust(f *testing.F) {
	f.Add([]byte(rustSeedSource), 17, 19, false)
	f.Add([]byte(rustSeedSource), 5, 5, false)
	f.Add([]byte(rustSeedSource), 22, 22, true)
	f.Add([]byte("fn f() -> u8 {\n    #[cfg(windows)]\n    { r#\"}\"#; '}'; b'{' }\n}\n"), 3, 3, false)
	f.Add([]byte("/* /* } */ */ fn g<'a>(x: &'a str) -> &'a str {\n    if cfg!(unix) { x } else { \"\" }\n}\n"), 2, 2, true)
	f.Fuzz(func(t *testing.T, src []byte, start, end int, coarse bool) {
		n := srcedit.CountLines(src)
		if n == 0 || start < 1 || end < start || end > n {
			return
		}
		in := mask.Input{Path: "src/lib.rs", Source: src, Coarse: coarse,
			Regions: []schemas.VerifiedRegion{{Region: schemas.Region{Start: start, End: end, SourceCompiled: true}, Verdict: schemas.Verdict{Label: schemas.LabelAPI}}}}
		out, err := mask.Rules{}.Mask(context.Background(), in)
		if err != nil {
			return // test code, or a file the rules refuse: an error, not a panic
		}
		if !coarse {
			// A function only the target compiles (cfg-gated) loses its
			// whole body when the region touches it (the quiet rule): the
			// lines that may change are the body's, which the action names.
			span := [2]int{start, end}
			for _, a := range out.Actions {
				if a.Kind != mask.KindFunctionBody {
					continue
				}
				if m := bodyLines.FindStringSubmatch(a.Detail); m != nil {
					first, _ := strconv.Atoi(m[1])
					last, _ := strconv.Atoi(m[2])
					span = [2]int{min(span[0], first), max(span[1], last)}
				}
			}
			if why := changedOutside(string(src), string(out.Source), [][2]int{span}); why != "" {
				t.Fatalf("%s\n--- source:\n%s\n--- masked:\n%s", why, src, out.Source)
			}
		}
	})
}

// rustSeedSource is a small file with every construct the masker knows.
const rustSeedSource = `use std::io;

#[cfg(windows)]
const SEP: char = '\\';
#[cfg(unix)]
const SEP: char = '/';

pub fn hidden(path: &str) -> io::Result<bool> {
    #[cfg(windows)]
    {
        let _ = path;
        Ok(true)
    }
    #[cfg(unix)]
    {
        Ok(path.starts_with('.'))
    }
}

pub fn sep() -> char {
    if cfg!(windows) {
        '\\'
    } else {
        SEP
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn t() {}
}
`
