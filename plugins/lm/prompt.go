package lm

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all" // the languages' prompt material
	"github.com/osbench/osbench/plugins/verify"
	"github.com/osbench/osbench/schemas"
)

// The prompt is versioned by PromptVersion: any change to the wording
// below changes the answers a model gives, so it must bump the version.

// languageNotes specialise the two labels whose evidence depends on the
// language: how code selects a platform, and what an OS-only API looks
// like. The wording is each language's (plugins/lang/<name>, Prompt).
var languageNotes = func() map[string]struct{ name, conditional, api string } {
	notes := map[string]struct{ name, conditional, api string }{}
	for _, name := range lang.Names() {
		if l, ok := lang.Lookup(name); ok && l.Prompt.Conditional != "" {
			notes[name] = struct{ name, conditional, api string }{l.Prompt.Name, l.Prompt.Conditional, l.Prompt.API}
		}
	}
	return notes
}()

// osNames and osMarkers spell a platform in the prompt.
var (
	osNames   = map[string]string{"linux": "Linux", "windows": "Windows"}
	osMarkers = map[string]string{"linux": "[L]", "windows": "[W]"}
)

// systemPrompt is the instructions for a file of language lang, judging the
// code of target against source.
func systemPrompt(lang, source, target string) string {
	notes := languageNotes[lang]
	src, tgt := osName(source), osName(target)
	var b strings.Builder
	fmt.Fprintf(&b, `You review %s source code for a benchmark of cross-platform code migration.
A test suite was run with line coverage on %s and on %s. Some lines ran on %s and never on %s; they are grouped into regions. For each region, decide whether it is code that exists for %s (code a port from %s to %s would have to write), and of which kind.

Labels (choose exactly one per region):
- platform-conditional: the region is selected by a platform condition and nothing more specific applies. In %s that means %s.
- platform-api: the region calls operating-system interfaces that exist on one platform only. In %s: %s.
- platform-path: path conventions of one platform: separators, drive letters, UNC names, PATH-style list separators, home, temp and configuration directories, case-insensitive names, reserved file names.
- platform-encoding: text conventions of one platform: line endings (CRLF), UTF-16 or wide strings, code pages and conversions between encodings.
- other-migration-feature: other adaptations for a platform: shims, fallbacks, capability probes, build or runtime adaptations.
- false-positive: not platform-specific; the region ran only on %s because of test selection, timing, randomness, environment or flags unrelated to the platform.

When a region is both selected by a condition and does a more specific thing (path, api, encoding, other-migration-feature), choose the specific label. Judge what the code does, not only where it is.

For each region also give:
- functional_area: what the code does, in a few words ("drive letter parsing").
- feature_group: a snake_case name of the platform feature ("windows_drive_letters").
- explanation: one or two sentences citing the code that decides the label.
- confidence: a number from 0 to 1.

Answer with one JSON object and nothing else, in exactly this shape, with one entry per region and the start and end given for it:
{"regions":[{"start":N,"end":N,"label":"...","functional_area":"...","feature_group":"...","explanation":"...","confidence":0.0}]}
`, notes.name, src, tgt, tgt, src, tgt, src, tgt,
		notes.name, notes.conditional, notes.name, notes.api, tgt)
	return b.String()
}

// userPrompt lists the file, its lines numbered and the target-only lines
// marked, followed by the regions to judge.
func userPrompt(in verify.Input, lines []string) string {
	marker, tgt, src := osMarkers[in.TargetOS], osName(in.TargetOS), osName(in.SourceOS)
	marked := markedLines(in.Regions)
	width := len(strconv.Itoa(len(lines)))
	blank := strings.Repeat(" ", len(marker))

	var b strings.Builder
	fmt.Fprintf(&b, "File: %s\n", in.Path)
	fmt.Fprintf(&b, "Lines marked %s ran on %s only. Each line is: number, marker, code.\n\n", marker, tgt)
	for i, text := range lines {
		n := i + 1
		m := blank
		if marked[n] {
			m = marker
		}
		fmt.Fprintf(&b, "%*d %s %s\n", width, n, m, text)
	}
	b.WriteString("\nRegions to judge:\n")
	for _, r := range in.Regions {
		where := "compiled on " + src + ", never run there"
		if !r.SourceCompiled {
			where = "not compiled on " + src
		}
		fmt.Fprintf(&b, "- start %d, end %d (%s)\n", r.Start, r.End, where)
	}
	return b.String()
}

// retryPrompt is the prompt of the second attempt: the first one with the
// reason its answer was refused.
func retryPrompt(prompt string, problem error) string {
	return prompt + "\nYour previous answer was refused:\n" + problem.Error() +
		"\nAnswer again with one JSON object in the required shape, one entry per region.\n"
}

// markedLines returns the lines to mark: each region's differential lines,
// or its whole range when the lines are not listed.
func markedLines(regions []schemas.Region) map[int]bool {
	marked := map[int]bool{}
	for _, r := range regions {
		if len(r.Lines) == 0 {
			for n := r.Start; n <= r.End; n++ {
				marked[n] = true
			}
			continue
		}
		for _, n := range r.Lines {
			marked[n] = true
		}
	}
	return marked
}

// splitLines splits a file into lines without their terminators ("\n" or
// "\r\n"); a final terminator does not start another line.
func splitLines(src []byte) []string {
	if len(src) == 0 {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

func osName(goos string) string {
	if name, ok := osNames[goos]; ok {
		return name
	}
	return goos
}
