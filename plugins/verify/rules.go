package verify

import (
	"context"
	"fmt"
	"math"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/plugins/lang/evidence"
	"github.com/osbench/osbench/schemas"
)

// frontEnd returns the verify front end of a language of lang.Default.
func frontEnd(name string) (func(string, []byte) (*evidence.File, error), bool) {
	l, ok := lang.Lookup(name)
	if !ok || l.Evidence.Read == nil {
		return nil, false
	}
	return l.Evidence.Read, true
}

// RulesName is the registry name of the deterministic verifier.
const RulesName = "rules"

// Rules is the deterministic verifier. It reads each file with its
// language's front end (lang.Language.Evidence: go/parser for Go,
// plugins/lang/braced's scanner for C, C++, Rust and C#) into guards
// (platform conditions and the lines they cover) and facts (OS-specific
// names and literals, by line) — an evidence.File — then judges each
// region with one language-neutral rule:
//
//  1. Evidence in the region's lines, and in the conditions guarding them,
//     is summed per label. When any of encoding, path, api or
//     other-migration-feature has evidence, the highest sum wins; ties go
//     to the more specific label in that order (a Win32 call that converts
//     code pages is an encoding matter before it is an API matter).
//     Under a guard, words of the enclosing function's name (or of the
//     guarded caller's) add weak evidence, so a guarded DriveLetter helper
//     counts as path code; without a guard, names alone prove nothing.
//  2. Otherwise a guard (build tag, file suffix, runtime.GOOS, #ifdef,
//     cfg, OperatingSystem.Is*, a file the source never compiled, or every
//     caller guarded) makes it platform-conditional.
//  3. Otherwise there is no platform evidence: false-positive, with low
//     confidence (target-only coverage of shared code usually comes from
//     tests skipped on the source, or from timing).
//
// Confidence grows with the evidence and with a guard; inherited guards
// (through callers) count less than written ones.
type Rules struct{}

// Verify implements Verifier.
func (Rules) Verify(ctx context.Context, in Input) ([]schemas.Verdict, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := in.Language
	if name == "" {
		name = LanguageOf(in.Path)
	}
	read, ok := frontEnd(name)
	if !ok {
		return nil, fmt.Errorf("verify %s: unsupported language %q", in.Path, in.Language)
	}
	m, err := read(in.Path, in.Source)
	if err != nil {
		return nil, err
	}
	inheritGuards(m)
	verdicts := make([]schemas.Verdict, 0, len(in.Regions))
	for i, r := range in.Regions {
		if r.Start < 1 || r.End < r.Start || r.End > m.Lines {
			return nil, fmt.Errorf("verify %s: region %d (lines %d-%d) is outside the file's %d lines",
				in.Path, i, r.Start, r.End, m.Lines)
		}
		verdicts = append(verdicts, judge(in, m, r))
	}
	return verdicts, nil
}

// Labels in the order that breaks ties between equal evidence: the most
// specific first.
var specificLabels = []string{schemas.LabelEncoding, schemas.LabelPath, schemas.LabelAPI, schemas.LabelOtherFeature}

func judge(in Input, m *evidence.File, r schemas.Region) schemas.Verdict {
	lines := regionLines(r)
	guards := append([]evidence.Guard(nil), m.FileGuards...)
	for _, l := range lines {
		guards = append(guards, m.GuardsAt(l)...)
	}
	if len(guards) == 0 && !r.SourceCompiled {
		guards = append(guards, evidence.Guard{Text: "the file is not compiled on " + osName(in.SourceOS), Strength: 0.6})
	}
	guards = dedupeGuards(guards)

	fn, hasFn := m.FuncAt(r.Start)
	found := evidenceOn(m, lines, guards)
	guarded := len(guards) > 0
	for _, e := range found {
		if e.Label == schemas.LabelConditional {
			guarded = true
		}
	}
	if !guarded {
		found = withoutPortable(found)
	}
	if guarded {
		names := []string{fn.Name}
		for _, g := range guards {
			names = append(names, g.Via)
		}
		found = append(found, nameHints(names)...)
	}

	score := map[string]float64{}
	for _, e := range found {
		score[e.Label] += e.Weight
	}
	label := ""
	for _, l := range specificLabels {
		if score[l] > 0 && (label == "" || score[l] > score[label]) {
			label = l
		}
	}

	v := schemas.Verdict{Verifier: RulesName, FunctionalArea: functionalArea(in.Path, fn, hasFn)}
	switch {
	case label != "":
		v.Label = label
		v.Confidence = 0.5 + 0.15*math.Min(score[label], 2)
		if guarded {
			v.Confidence += 0.15
		}
		v.FeatureGroup = strongest(found, label).Group
	case guarded:
		v.Label = schemas.LabelConditional
		v.Confidence = 0.5
		for _, g := range guards {
			v.Confidence = math.Max(v.Confidence, g.Strength)
		}
		for _, e := range found {
			if e.Label == schemas.LabelConditional {
				v.Confidence = math.Max(v.Confidence, e.Weight)
			}
		}
	default:
		v.Label = schemas.LabelFalsePositive
		v.Confidence = 0.3
	}
	v.Confidence = math.Round(math.Min(v.Confidence, 0.95)*100) / 100
	if v.FeatureGroup == "" {
		v.FeatureGroup = fallbackGroup(in.Path, fn, hasFn)
	}
	v.Explanation = explain(in, r, v.Label, fn, hasFn, guards, found)
	return v
}

// withoutPortable drops facts that every OS has (evidence.Fact.Portable).
func withoutPortable(found []evidence.Fact) []evidence.Fact {
	kept := found[:0:0]
	for _, e := range found {
		if !e.Portable {
			kept = append(kept, e)
		}
	}
	return kept
}

// regionLines lists the differential lines of r, or all of [Start, End]
// when the region does not list them.
func regionLines(r schemas.Region) []int {
	var lines []int
	for _, l := range r.Lines {
		if r.Start <= l && l <= r.End {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		for l := r.Start; l <= r.End; l++ {
			lines = append(lines, l)
		}
	}
	return lines
}

// evidenceOn collects the evidence on the region's lines and on the lines
// of the conditions that guard them (`if filepath.Separator == '\\'` says
// the guarded code is about separators).
func evidenceOn(m *evidence.File, lines []int, guards []evidence.Guard) []evidence.Fact {
	want := map[int]bool{}
	for _, l := range lines {
		want[l] = true
	}
	for _, g := range guards {
		if g.Line > 0 {
			want[g.Line] = true
		}
	}
	var out []evidence.Fact
	for _, e := range m.Facts {
		if want[e.Line] {
			out = append(out, e)
		}
	}
	return out
}

// nameHints are the words of function names that suggest a kind of
// platform code. They only refine a guarded region (see Rules).
var hintPatterns = []struct {
	label string
	re    *regexp.Regexp
}{
	{schemas.LabelEncoding, regexp.MustCompile(`(^|_)(eol|line_ending|utf_?16|wide|widen|narrow|native_unit|code_?page|to_native|from_native|encoding)(_|$)`)},
	{schemas.LabelPath, regexp.MustCompile(`(^|_)(drive|drive_letter|separator|sep|volume|home|home_dir|unc|path_list|split_list|list_separator|temp_dir|config_dir|base_dir|normalize|absolute|is_absolute|windows_name|reserved_windows_rune|same_name)(_|$)`)},
	{schemas.LabelAPI, regexp.MustCompile(`(^|_)(hidden|attributes?|attrs|permissions?|read_only|readonly|writable|permits_write|stat|owner)(_|$)`)},
}

func nameHints(names []string) []evidence.Fact {
	var out []evidence.Fact
	for _, n := range names {
		s := snakeCase(n)
		if s == "" {
			continue
		}
		for _, h := range hintPatterns {
			if h.re.MatchString(s) {
				out = append(out, evidence.Fact{Label: h.label, Group: s, What: "the name " + n, Weight: 0.3})
			}
		}
	}
	return out
}

// strongest returns the heaviest evidence for label, the earliest on ties.
func strongest(found []evidence.Fact, label string) evidence.Fact {
	var best evidence.Fact
	for _, e := range found {
		if e.Label == label && e.Weight > best.Weight {
			best = e
		}
	}
	return best
}

func functionalArea(file string, fn evidence.Func, hasFn bool) string {
	if !hasFn {
		return "file-level declarations of " + path.Base(file)
	}
	if d := docSummary(fn.Doc, fn.Name); d != "" {
		return d + " (" + fn.Name + ")"
	}
	return strings.ReplaceAll(snakeCase(fn.Name), "_", " ") + " (" + fn.Name + ")"
}

// docSummary shortens a doc comment to its first sentence, without the
// leading function name, in at most ten words.
func docSummary(doc, name string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	if i := strings.Index(doc, ". "); i >= 0 {
		doc = doc[:i]
	}
	doc = strings.TrimSuffix(doc, ".")
	short := name
	if i := strings.LastIndexAny(short, ".:"); i >= 0 {
		short = short[i+1:]
	}
	doc = strings.TrimPrefix(doc, short+" ")
	words := strings.Fields(doc)
	if len(words) > 10 {
		words = append(words[:10], "...")
	}
	return strings.Join(words, " ")
}

func fallbackGroup(file string, fn evidence.Func, hasFn bool) string {
	if hasFn {
		if s := snakeCase(fn.Name); s != "" {
			return s
		}
	}
	base := strings.TrimSuffix(path.Base(file), path.Ext(file))
	if s := snakeCase(base); s != "" {
		return s
	}
	return "unclassified"
}

// snakeCase turns an identifier (camelCase, PascalCase, with acronyms,
// dots or colons) into lower snake_case words.
func snakeCase(s string) string {
	var words []string
	var cur []rune
	rs := []rune(s)
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i, c := range rs {
		switch {
		case c > unicode.MaxASCII || !(unicode.IsLetter(c) || unicode.IsDigit(c)):
			flush()
		case unicode.IsUpper(c) && len(cur) > 0 &&
			(unicode.IsLower(cur[len(cur)-1]) || unicode.IsDigit(cur[len(cur)-1]) ||
				(i+1 < len(rs) && unicode.IsLower(rs[i+1]))):
			flush()
			cur = append(cur, c)
		default:
			cur = append(cur, c)
		}
	}
	flush()
	return strings.Join(words, "_")
}

func osName(os string) string {
	if os == "" {
		return "the source platform"
	}
	return os
}

func explain(in Input, r schemas.Region, label string, fn evidence.Func, hasFn bool, guards []evidence.Guard, found []evidence.Fact) string {
	var b strings.Builder
	fmt.Fprintf(&b, "lines %d-%d", r.Start, r.End)
	if hasFn {
		fmt.Fprintf(&b, " of %s", fn.Name)
	}
	if in.TargetOS != "" {
		fmt.Fprintf(&b, " run on %s only", in.TargetOS)
	}
	if label == schemas.LabelFalsePositive {
		b.WriteString("; no platform evidence: no guard (build tag, file suffix, OS check, preprocessor or cfg condition) and no OS-specific API, path, or encoding; the target-only coverage likely comes from tests skipped on the source or from timing")
		return b.String()
	}
	if len(guards) > 0 {
		var parts []string
		for _, g := range guards {
			p := g.Text
			if g.Line > 0 {
				p = fmt.Sprintf("%s (line %d)", p, g.Line)
			}
			if g.Via != "" {
				p += " through its caller " + g.Via
			}
			parts = append(parts, p)
		}
		b.WriteString("; guarded by " + strings.Join(parts, ", "))
	}
	var whats []string
	seen := map[string]bool{}
	sorted := append([]evidence.Fact(nil), found...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Weight > sorted[j].Weight })
	for _, e := range sorted {
		if e.Label != label || seen[e.What] {
			continue
		}
		seen[e.What] = true
		whats = append(whats, e.What)
		if len(whats) == 4 {
			break
		}
	}
	if len(whats) > 0 {
		fmt.Fprintf(&b, "; %s evidence: %s", label, strings.Join(whats, ", "))
	}
	return b.String()
}
