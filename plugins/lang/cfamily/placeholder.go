package cfamily

import (
	"regexp"
	"strings"
)

// Placeholders: the statements that replace a masked body or branch, and
// the zero value of a declared result type they return.

// indented is a placeholder line at indent; a directive (a conditional
// cast's) starts its line, as the file's own directives do.
func indented(indent, line string) string {
	if strings.HasPrefix(line, "#") {
		return line
	}
	return indent + line
}

// unconditional drops the conditional casts ("#if", a cast, "#endif") of
// a placeholder that must fit on one line, where no directive can stand.
func unconditional(ph []string) []string {
	var out []string
	for i := 0; i < len(ph); i++ {
		if strings.HasPrefix(ph[i], "#if ") {
			i += 2
			continue
		}
		out = append(out, ph[i])
	}
	return out
}

// placeholder returns the statements of a quiet body for fn: every
// parameter, and every file static the body named, cast to void (no
// unused-parameter or unused-function warnings) and a zero-value
// return. ok is false for result types without a zero value to return (a
// reference, a deduced type).
func (m *cMasker) placeholder(fn *cfunc) ([]string, bool) {
	var ph []string
	for _, p := range fn.params {
		ph = append(ph, "(void)"+p+";")
	}
	for _, s := range m.staticsUsed(fn) { // see statics.go
		if s.cond == "" {
			ph = append(ph, "(void)"+s.name+";")
			continue
		}
		ph = append(ph, "#if "+s.cond, "(void)"+s.name+";", "#endif")
	}
	zero, ok := m.zeroValue(fn.result)
	switch {
	case !ok:
		return nil, false
	case zero == "":
		return append(ph, "return;"), true
	default:
		return append(ph, "return "+zero+";"), true
	}
}

// cArithmetic are type words and common typedefs whose zero is 0.
var cArithmetic = map[string]bool{
	"int": true, "char": true, "short": true, "long": true, "unsigned": true, "signed": true, "float": true,
	"double": true, "_Bool": true, "size_t": true, "ssize_t": true, "ptrdiff_t": true, "intptr_t": true,
	"uintptr_t": true, "off_t": true, "int8_t": true, "int16_t": true, "int32_t": true, "int64_t": true,
	"uint8_t": true, "uint16_t": true, "uint32_t": true, "uint64_t": true, "wchar_t": true, "char16_t": true,
	"char32_t": true, "DWORD": true, "BOOL": true, "UINT": true, "WORD": true, "BYTE": true, "LONG": true,
	"ULONG": true, "HRESULT": true, "INT": true, "enum": true,
}

// zeroValue spells the zero value of a declared return type; "" for void.
// Read-only character pointers get an empty string rather than a null
// pointer: callers commonly hand them to strlen or std::string, where a
// null pointer crashes or throws, and a placeholder must stay quiet.
func (m *cMasker) zeroValue(result []string) (string, bool) {
	words := trimQualifiers(result)
	var base []string
	stars, ref, isConst := 0, false, false
	for _, w := range words {
		switch w {
		case "*":
			stars++
		case "&", "&&":
			ref = true
		case "const":
			isConst = true
		case "volatile", "typename":
		default:
			base = append(base, w)
		}
	}
	joined := strings.Join(base, " ")
	switch {
	case ref || joined == "auto" || strings.HasPrefix(joined, "decltype"):
		return "", false
	case len(base) == 0 || (joined == "void" && stars == 0):
		return "", true // constructors, destructors, void
	case stars == 1 && isConst && (joined == "char" || joined == "wchar_t"):
		return map[string]string{"char": `""`, "wchar_t": `L""`}[joined], true
	case stars > 0 && m.f.cpp:
		return "nullptr", true
	case stars > 0:
		if m.mentions("NULL") {
			return "NULL", true
		}
		return "0", true
	case joined == "bool":
		if m.f.cpp || m.mentions("false") {
			return "false", true
		}
		return "0", true
	case cArithmetic[base[0]]:
		return "0", true
	case m.f.cpp:
		return "{}", true
	default:
		// A struct, union or typedef by value: a compound literal is the
		// zero of any of them (C99).
		return "(" + strings.Join(words, " ") + "){0}", true
	}
}

// dropSpecifierMacros removes from a declared result type the
// upper-case words that stand for specifiers or attributes through a
// macro (jansson's "static JSON_INLINE json_t *", expat's "XML_Bool
// XMLCALL"): spelt into a zero value, "(JSON_INLINE int){0}" does not
// compile. A word is kept when it is the only type word left, a known
// type (DWORD, LONG), or the tag of struct, union or enum.
func dropSpecifierMacros(result []string) []string {
	typeWords := 0
	for _, w := range result {
		if isCIdent(w) || cKeywords[w] && w != "const" && w != "volatile" {
			typeWords++
		}
	}
	var out []string
	for i, w := range result {
		tagged := i > 0 && (result[i-1] == "struct" || result[i-1] == "union" || result[i-1] == "enum")
		if typeWords > 1 && upperMacro.MatchString(w) && !cArithmetic[w] && !tagged {
			typeWords--
			continue
		}
		out = append(out, w)
	}
	return out
}

// upperMacro is how C spells a macro standing for a specifier: upper case,
// digits and underscores, at least two characters.
var upperMacro = regexp.MustCompile(`^[A-Z_][A-Z0-9_]+$`)
