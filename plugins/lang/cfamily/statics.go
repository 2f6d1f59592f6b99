package cfamily

import (
	"regexp"
	"strings"
)

// File-scope statics a placeholder keeps referenced.
//
// A C library built with -Werror=unused-function (and unused-variable,
// unused-const-variable) fails to build once a placeholder replaces the
// only body that used a static helper or table: json-c's tokenizer lost
// its build to a dozen "defined but not used" errors on the target. A
// placeholder therefore casts to void every static function and variable
// of the file that the body it replaces named, as it does the function's
// parameters. Only statics declared before the function are named. One
// declared inside conditional groups is named under its declaration's
// condition ("#if defined(WIN32)" / "(void)x;" / "#endif": json-c's
// get_cryptgenrandom_seed), unless a macro of that condition is defined
// or undefined between the declaration and the placeholder, or a
// directive's condition cannot be read; then it is not named at all. C++
// is left alone, where a static name may be an overload set that a cast
// to void cannot take.

// fileStatics returns the static functions and variables declared at file
// scope before token index before, by name, each with the condition under
// which it is declared ("" for every platform). The file's statics are
// found once (staticDecls), whatever the number of placeholders.
func (f *cfile) fileStatics(before int) map[string]staticDecl {
	if f.statics == nil {
		f.statics = f.staticDecls()
	}
	names := map[string]staticDecl{}
	for _, d := range f.statics {
		if d.at >= before {
			continue
		}
		if d.cond != "" && f.redefinedBetween(d.cond, d.at, before) {
			continue
		}
		if old, ok := names[d.name]; ok && old.cond == "" {
			continue // declared for every platform already
		}
		names[d.name] = d
	}
	return names
}

// staticDecl is a file-scope static declaration: its name, the index of
// its "static" token and the condition it is compiled under.
type staticDecl struct {
	name string
	at   int
	cond string
}

// staticDecls lists the file-scope statics in file order; those inside a
// conditional group whose condition cannot be read are left out.
func (f *cfile) staticDecls() []staticDecl {
	toks := f.lx.tokens
	decls := []staticDecl{}
	for i := range toks {
		if toks[i].text != "static" || f.parent[i] != -1 {
			continue
		}
		name := f.declaredName(i+1, len(toks))
		if name == "" {
			continue
		}
		cond, ok := f.tokenCondition(i)
		if !ok {
			continue
		}
		decls = append(decls, staticDecl{name: name, at: i, cond: cond})
	}
	return decls
}

// declaredName is the identifier a declaration starting at token i
// declares: the last identifier before its first '(', '=', '[', ',' or ';'.
// "" when a '{' (a struct or enum definition) or a keyword comes first.
func (f *cfile) declaredName(i, limit int) string {
	toks := f.lx.tokens
	last := ""
	for ; i < limit && i < len(toks); i++ {
		switch t := toks[i].text; t {
		case "(", "=", "[", ",", ";":
			if declKeywords[last] || cArithmetic[last] {
				return ""
			}
			return last
		case "{":
			return ""
		default:
			if isCIdent(t) {
				last = t
			}
		}
	}
	return ""
}

// tokenCondition spells the condition under which token i is compiled:
// the conjunction of its enclosing branches' conditions, "" outside every
// group. ok is false when a directive's condition cannot be read.
func (f *cfile) tokenCondition(i int) (string, bool) {
	bi := -1
	for k, b := range f.branches {
		if b.tokLo <= i && i < b.tokHi && (bi < 0 || b.depth > f.branches[bi].depth) {
			bi = k
		}
	}
	var terms []string
	for b := bi; b >= 0; b = f.branches[b].outer {
		own, ok := f.ownCondition(b)
		if !ok {
			return "", false
		}
		terms = append(own, terms...)
	}
	return strings.Join(terms, " && "), true
}

// redefinedBetween reports whether a macro cond tests is defined or
// undefined by a directive between tokens from and to: the condition
// read at the placeholder would not be the declaration's.
func (f *cfile) redefinedBetween(cond string, from, to int) bool {
	names := map[string]bool{}
	for _, w := range identWord.FindAllString(cond, -1) {
		names[w] = true
	}
	lo, hi := f.lx.tokens[from].start, len(f.src)
	if to < len(f.lx.tokens) {
		hi = f.lx.tokens[to].start
	}
	for _, d := range f.lx.directives {
		if d.start < lo || d.start >= hi || (d.name != "define" && d.name != "undef") {
			continue
		}
		if words := identWord.FindAllString(string(f.src[d.start:d.end]), 2); len(words) == 2 && names[words[1]] {
			return true
		}
	}
	return false
}

// staticUse is a static a placeholder names, under cond when not "".
type staticUse struct{ name, cond string }

// staticsUsed lists, in order of first use, the file's statics that fn's
// body names (fn itself and its parameters aside).
func (m *cMasker) staticsUsed(fn *cfunc) []staticUse {
	if m.f.cpp || fn.close < 0 {
		return nil
	}
	statics := m.f.fileStatics(fn.open)
	seen := map[string]bool{fn.name: true}
	for _, p := range fn.params {
		seen[p] = true
	}
	var used []staticUse
	var name func(word string)
	name = func(word string) {
		if seen[word] {
			return
		}
		seen[word] = true
		if d, ok := statics[word]; ok {
			used = append(used, staticUse{name: word, cond: d.cond})
			return
		}
		// A macro the body names brings the statics its replacement
		// names: json-c's tokenizer reads its UTF-8 validator only through
		// PEEK_CHAR, so a placeholder that names PEEK_CHAR alone left the
		// validator unused under -Werror=unused-function.
		for _, w := range m.f.macroWords()[word] {
			name(w)
		}
	}
	for _, t := range m.f.lx.tokens[fn.open+1 : fn.close] {
		name(t.text)
	}
	return used
}

// macroWords maps each macro the file #defines to the identifiers of its
// replacement lists (every definition's, whatever branch holds it: a
// static is named only when it is declared on every platform anyway).
func (f *cfile) macroWords() map[string][]string {
	if f.macros != nil {
		return f.macros
	}
	f.macros = map[string][]string{}
	for _, d := range f.lx.directives {
		if d.name != "define" {
			continue
		}
		text := stripComments(strings.ReplaceAll(string(f.src[d.start:d.end]), "\\\n", " "))
		text = stringLiteral.ReplaceAllString(text, " ")
		words := identWord.FindAllString(text, -1)
		// "define", then the macro's name.
		if len(words) < 2 {
			continue
		}
		f.macros[words[1]] = append(f.macros[words[1]], words[2:]...)
	}
	return f.macros
}

var (
	identWord     = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	stringLiteral = regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'`)
)

// declKeywords are words (besides cKeywords) a declared name never is.
var declKeywords = map[string]bool{
	"static": true, "const": true, "volatile": true, "inline": true, "extern": true, "struct": true,
	"union": true, "enum": true, "void": true, "register": true, "restrict": true, "__inline": true,
	"__attribute__": true, "typedef": true,
}
