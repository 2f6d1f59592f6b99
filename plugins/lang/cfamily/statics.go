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
// parameters. Only statics declared before the function and outside every
// conditional directive are named, since only those are declared on every
// platform the placeholder is compiled for; C++ is left alone, where a
// static name may be an overload set that a cast to void cannot take.

// fileStatics returns the names of the static functions and variables
// declared at file scope, before token index before and outside every #if.
// The file's statics are found once (staticDecls), whatever the number of
// placeholders.
func (f *cfile) fileStatics(before int) map[string]bool {
	if f.statics == nil {
		f.statics = f.staticDecls()
	}
	names := map[string]bool{}
	for _, d := range f.statics {
		if d.at < before {
			names[d.name] = true
		}
	}
	return names
}

// staticDecl is a file-scope static declaration: its name and the index
// of its "static" token.
type staticDecl struct {
	name string
	at   int
}

// staticDecls lists the file-scope statics outside every conditional
// directive, in file order.
func (f *cfile) staticDecls() []staticDecl {
	toks := f.lx.tokens
	decls := []staticDecl{}
	depth, d := 0, 0 // conditional nesting at the current token; next directive
	for i := range toks {
		for d < len(f.lx.directives) && f.lx.directives[d].start < toks[i].start {
			switch f.lx.directives[d].name {
			case "if", "ifdef", "ifndef":
				depth++
			case "endif":
				depth = max(depth-1, 0)
			}
			d++
		}
		if toks[i].text != "static" || depth > 0 || f.parent[i] != -1 {
			continue
		}
		if name := f.declaredName(i+1, len(toks)); name != "" {
			decls = append(decls, staticDecl{name: name, at: i})
		}
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

// staticsUsed lists, in order of first use, the file's statics that fn's
// body names (fn itself and its parameters aside).
func (m *cMasker) staticsUsed(fn *cfunc) []string {
	if m.f.cpp || fn.close < 0 {
		return nil
	}
	statics := m.f.fileStatics(fn.open)
	seen := map[string]bool{fn.name: true}
	for _, p := range fn.params {
		seen[p] = true
	}
	var used []string
	var name func(word string)
	name = func(word string) {
		if seen[word] {
			return
		}
		seen[word] = true
		if statics[word] {
			used = append(used, word)
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
