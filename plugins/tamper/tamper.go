// Package tamper is the static scan of an agent's patch for forgery
// patterns (docs/security.md): text that imitates a test runner's output,
// code that runs before the test harness and ends the process or prints
// (Go init, C/C++ constructors, Rust init-section entries, C# module
// initializers), probes of how the harness runs the code, and edits to
// what defines a test (add_test, [[test]], harness = false, TestMain, a
// cargo runner, CTest's own files).
//
// A finding is evidence for people, not a verdict: the report says
// "tamper-suspected" and where to look; the structural defences decide.
// The scan reads only the patch, line by line (with the hunk's context for
// the blocks of init-time code), so it is cheap and cannot be fooled into
// running anything — and it is easily evaded by code that builds its
// strings at run time, which is why it is never the only defence.
package tamper

import (
	"slices"
	"sort"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// Version identifies the rule set. It enters the key of the step that
// scans, so changing any rule rescans every patch (and nothing else).
// Bump it with every change to a rule, a pattern or what a finding says.
//
// Version 2: cargo-config-program and build-time-download. Version 3:
// other-process.
//
// The runners' output rules are part of the set (rules.go): a runner that
// brings a rule of its own, or whose Version is not 1 (a runner bumps it
// when its rule changes), adds "+name@version" to the base, so a runner
// change rescans without a bump here, and the set of today's runners is
// the base alone, as before they held their rules.
var Version = ruleSetVersion()

// baseVersion is the version of the rules written here.
const baseVersion = "3"

func ruleSetVersion() string {
	v := baseVersion
	for _, r := range runnerOutputs() {
		if !slices.Contains(legacyOutputOrder, r.Output.ID) || r.Version != "1" {
			v += "+" + r.Name + "@" + r.Version
		}
	}
	return v
}

// RuleInfo names a rule and says what it looks for.
type RuleInfo struct{ ID, Reason string }

// Rules lists every rule ID with its reason, sorted by ID (a rule with
// several patterns appears once, with its first reason).
func Rules() []RuleInfo {
	seen := map[string]bool{}
	var out []RuleInfo
	add := func(id, reason string) {
		if !seen[id] {
			seen[id] = true
			out = append(out, RuleInfo{id, reason})
		}
	}
	for _, r := range lineRules {
		add(r.id, r.reason)
	}
	add(RuleInitExit, "init-time code ends the process")
	add(RuleInitOutput, "init-time code writes output")
	add(RuleTestDefinition, "edits a file that defines what the test runner runs")
	add(RuleBinaryContent, "carries binary content, which the scan cannot read")
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Scan returns the findings of every rule in the patch, in patch order,
// one per rule and patch line. A patch that is not a diff has none.
func Scan(patch []byte) []schemas.TamperFinding {
	var out []schemas.TamperFinding
	type at struct {
		line int
		rule string
	}
	seen := map[at]bool{}
	report := func(file string, line int, rule, reason string) {
		k := at{line, rule}
		if seen[k] {
			return
		}
		seen[k] = true
		out = append(out, schemas.TamperFinding{File: file, PatchLine: line, Rule: rule, Reason: reason})
	}
	for _, f := range readDiff(patch) {
		setCode(f)
		if f.binary != 0 {
			report(f.path, f.binary, RuleBinaryContent, "carries binary content, which the scan cannot read; check what builds or runs it")
		}
		if isProse(f.path) {
			continue
		}
		if isTestDefinitionFile(f.path) && len(f.lines) > 0 {
			report(f.path, f.headerLine, RuleTestDefinition, "edits "+f.path+", which defines what the test runner runs")
		}
		for _, l := range f.lines {
			if l.kind == context {
				continue
			}
			for _, r := range lineRules {
				if l.kind == removed && !r.removedToo {
					continue
				}
				if r.files != nil && !r.files(f.path) {
					continue
				}
				if r.pattern.MatchString(l.code) {
					report(f.path, l.patchLine, r.id, r.reason)
				}
			}
		}
		scanInitBlocks(f, report)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].PatchLine < out[j].PatchLine })
	if out == nil {
		out = []schemas.TamperFinding{}
	}
	return out
}

// scanInitBlocks finds the blocks of init-time code the file's hunks show
// (a Go init function or a called package-level func literal; a C/C++
// constructor; a function an init section or a #[ctor] names) and reports
// the added lines in them that end the process or write output. The
// blocks are followed by brace depth through the hunk's new side (added
// and context lines); a block is never followed across hunks.
func scanInitBlocks(f *fileDiff, report func(file string, line int, rule, reason string)) {
	lang := languageOf(f.path)
	if lang == "" {
		return
	}
	exit, output := exitCalls[lang], outputCalls[lang]
	named := initFunctions(f, lang)

	type pending struct {
		file         string
		line         int
		rule, reason string
		needsCalling bool
	}
	var (
		inBlock  bool
		opening  bool // an init-time construct was seen; its body starts at the next "{"
		depth    int
		varFunc  bool // the block is a Go func literal: init-time only if called where it closes
		found    []pending
		lastHunk = -1
	)
	flush := func(called bool) {
		for _, p := range found {
			if !p.needsCalling || called {
				report(p.file, p.line, p.rule, p.reason)
			}
		}
		found = nil
	}
	for _, l := range f.lines {
		if l.kind == removed {
			continue
		}
		if l.hunk != lastHunk {
			// A new hunk: what the previous one left open is unknown
			// here. Findings inside a block already seen stand.
			flush(!varFunc)
			inBlock, opening, depth, varFunc, lastHunk = false, false, 0, false, l.hunk
		}
		code := stripLiterals(l.code)
		if !inBlock && !opening {
			switch {
			case lang == "go" && goInit.MatchString(l.code):
				opening = true
			case lang == "go" && goVarFunc.MatchString(l.code):
				opening, varFunc = true, true
			case lang != "go" && (cConstructor.MatchString(l.code) || definesNamed(l.code, lang, named)):
				opening = true
			}
		}
		if opening || inBlock {
			if l.kind == added && (inBlock || strings.Contains(code, "{")) {
				if exit.MatchString(code) {
					found = append(found, pending{f.path, l.patchLine, RuleInitExit, "init-time code ends the process before the test harness reports", varFunc})
				}
				if output.MatchString(code) {
					found = append(found, pending{f.path, l.patchLine, RuleInitOutput, "init-time code writes output the test parser reads", varFunc})
				}
			}
			for _, c := range code {
				switch c {
				case '{':
					depth++
					inBlock, opening = true, false
				case '}':
					depth--
				}
			}
			if opening && strings.Contains(code, ";") && lang != "go" {
				opening = false // a declaration, not a definition
			}
			if inBlock && depth <= 0 {
				flush(!varFunc || calledFunc.MatchString(afterLastBrace(l.code)))
				inBlock, depth, varFunc = false, 0, false
			}
		}
	}
	flush(!varFunc)

	// Init-time code that calls a helper, or a body this reading cannot
	// follow (a block expression in an init-section static): in a C, C++,
	// Rust or C# file whose added lines bring init-time code, any added
	// process exit is reported.
	if lang == "go" || !addsInitTimeCode(f) {
		return
	}
	for _, l := range f.lines {
		if l.kind == added && exit.MatchString(stripLiterals(l.code)) {
			report(f.path, l.patchLine, RuleInitExit, "ends the process in a file that adds init-time code")
		}
	}
}

// addsInitTimeCode reports an added constructor, init-section entry or
// module initializer in the file.
func addsInitTimeCode(f *fileDiff) bool {
	for _, l := range f.lines {
		if l.kind == added && (cConstructor.MatchString(l.code) || initSection.MatchString(l.code)) {
			return true
		}
	}
	return false
}

// afterLastBrace is line from its last "}" on ("" when it has none): where
// a func literal's closing brace meets its call.
func afterLastBrace(line string) string {
	if i := strings.LastIndex(line, "}"); i >= 0 {
		return line[i:]
	}
	return ""
}

// initFunctions are the names of the functions the file's new side places
// in an init section (`#[link_section = ".init_array"] static X: fn() = f;`,
// `__attribute__((section(".init_array"))) void (*p)(void) = f;`) or
// declares as constructors without a body on the same line.
func initFunctions(f *fileDiff, lang string) map[string]bool {
	named := map[string]bool{}
	sectionOpen := false
	for _, l := range f.lines {
		if l.kind == removed {
			continue
		}
		if initSection.MatchString(l.code) || (lang == "rust" && strings.Contains(l.code, "#[used")) {
			sectionOpen = true
		}
		if sectionOpen {
			if m := sectionRefs.FindStringSubmatch(l.code); m != nil {
				named[m[1]] = true
				sectionOpen = false
			}
		}
		if lang != "go" && cConstructor.MatchString(l.code) && strings.Contains(l.code, ";") {
			ms := cFuncName.FindAllStringSubmatch(stripLiterals(l.code), -1)
			for _, m := range ms {
				if m[1] != "__attribute__" && m[1] != "constructor" && m[1] != "__constructor__" {
					named[m[1]] = true
				}
			}
		}
	}
	return named
}

// definesNamed reports whether line starts the definition of one of the
// named functions.
func definesNamed(line, lang string, named map[string]bool) bool {
	if len(named) == 0 {
		return false
	}
	code := stripLiterals(line)
	if strings.Contains(code, ";") && !strings.Contains(code, "{") {
		return false
	}
	if lang == "rust" {
		i := strings.Index(code, "fn ")
		if i < 0 {
			return false
		}
		rest := strings.TrimSpace(code[i+3:])
		end := strings.IndexAny(rest, "(<")
		return end > 0 && named[strings.TrimSpace(rest[:end])]
	}
	for _, m := range cFuncName.FindAllStringSubmatch(code, -1) {
		if named[m[1]] {
			return true
		}
	}
	return false
}

// stripLiterals blanks string and character literals and drops a line
// comment, so braces and calls inside them are not counted. It is a
// line-local approximation (a literal spanning lines is not followed).
func stripLiterals(s string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote != '`' {
				i++
			} else if c == quote {
				quote = 0
				b.WriteByte(c)
			}
			continue
		case c == '"' || c == '`':
			quote = c
		case c == '\'':
			// A char literal ('x', '\n', '{'); Rust lifetimes ('a) have no
			// closing quote within three bytes and are kept.
			if j := strings.IndexByte(s[i+1:min(len(s), i+5)], '\''); j >= 0 {
				b.WriteString("''")
				i += j + 1
				continue
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			return b.String()
		}
		b.WriteByte(c)
	}
	return b.String()
}
