package braced

import (
	"regexp"
	"strings"

	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/plugins/lang/evidence"
)

// patternFacts applies the grammar's pattern table to every code line and
// the literal rules to every literal, then adds the grammar's extra facts.
func patternFacts(g *Grammar, lines []string, lits []lang.Literal) []evidence.Fact {
	var out []evidence.Fact
	for i, code := range lines {
		for _, p := range g.Patterns {
			for _, loc := range p.Re.FindAllStringIndex(code, -1) {
				out = append(out, evidence.Fact{Line: i + 1, Label: p.Label, Group: p.Group,
					What: strings.TrimLeft(strings.TrimSpace(code[loc[0]:loc[1]]), ".>:(["), Weight: p.Weight})
			}
		}
	}
	for _, l := range lits {
		for _, e := range evidence.Literal(l.Value, l.Shown) {
			e.Line = l.Line
			out = append(out, e)
		}
	}
	if g.ExtraFacts != nil {
		out = append(out, g.ExtraFacts(lines, CallSites(g.Syntax, lines))...)
	}
	return out
}

var callRe = regexp.MustCompile(`(?:^|[^.\w>])((?:\w+::)*[A-Za-z_]\w*)\s*\(`)

// CallSites lists the calls of plain functions in the code lines of a file
// (comments removed, literal contents blanked), by name: the last path
// segment for Rust and C++ qualified names. Preprocessor lines hold none.
func CallSites(syn lang.Syntax, code []string) []evidence.Call {
	var out []evidence.Call
	for i, line := range code {
		if syn.Preprocessor && strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, m := range callRe.FindAllStringSubmatch(line, -1) {
			name := m[1]
			name = name[strings.LastIndex(name, ":")+1:]
			if notFuncName[name] || name == "fn" {
				continue
			}
			out = append(out, evidence.Call{Callee: name, Line: i + 1})
		}
	}
	return out
}
