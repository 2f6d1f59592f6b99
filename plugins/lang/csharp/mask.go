package csharp

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/osbench/osbench/plugins/lang"
)

// MaskRules is the rules masker for C#. Only code a platform construct
// selects is touched:
//
//   - the block (or braceless statement) of an if on OperatingSystem.Is*()
//     or RuntimeInformation.IsOSPlatform(…) (or the else block of one), and the
//     branch of an #if on a platform symbol (#if WINDOWS) inside a body,
//     become an early return of the member's quiet zero value (yield break
//     in an iterator, the out parameters assigned first), so no code of the
//     branch, and none after it on the target's path, runs;
//   - a member only one platform calls ([SupportedOSPlatform("windows")] on
//     it or on its type, or defined inside a platform #if) keeps its
//     signature and gets a placeholder body (or expression) as soon as a
//     region touches it.
//
// The quiet zero of a type is "" for string, an empty array, an empty
// sequence for IEnumerable<T>, a completed task for Task, and default(T)
// otherwise: callers compare a string or iterate a sequence, they do not
// null-check them. A region outside every platform construct is left
// unmasked (KindUnmasked), as is one in a member whose header the rules
// cannot read. Coarse changes nothing: the branches are already emptied to
// an early return, there is no finer mode to retry.
type MaskRules struct{}

// Version names the rules.
func (MaskRules) Version() string { return "1" }

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
	kind       string
	detail     string
}

// Mask implements lang.MaskRules.
func (MaskRules) Mask(ctx context.Context, in lang.MaskInput) (lang.MaskOutput, error) {
	if err := ctx.Err(); err != nil {
		return lang.MaskOutput{}, err
	}
	src := in.Source
	lx := lex(src)
	st := read(src, lx)
	branches := ppBranches(src, lx.directives)
	lineStarts := lineOffsets(src)
	var (
		edits   []edit
		actions []lang.Action
	)
	for _, r := range in.Regions {
		if r.Start < 1 || r.End < r.Start || r.Start > len(lineStarts) {
			return lang.MaskOutput{}, fmt.Errorf("mask %s: region %d-%d outside the file's %d lines", in.Path, r.Start, r.End, len(lineStarts))
		}
		from, to := lineStarts[r.Start-1], lineEnd(src, lineStarts, r.End)
		e, why := maskRegion(src, st, branches, from, to)
		if e == nil {
			actions = append(actions, lang.Action{Region: r.Region, Kind: lang.KindUnmasked, Detail: why})
			continue
		}
		edits = append(edits, *e)
		actions = append(actions, lang.Action{Region: r.Region, Kind: e.kind, Detail: e.detail})
	}
	return lang.MaskOutput{Source: apply(src, edits), Actions: actions}, nil
}

// maskRegion picks the edit for the region at src[from:to]: the member's
// whole body when the member is one platform's, else the innermost
// platform branch around the region.
func maskRegion(src []byte, st structure, branches []ppBranch, from, to int) (*edit, string) {
	m := enclosingMember(st, from, to)
	if m != nil && (m.attrs || insideBranch(branches, memberStart(m))) {
		return bodyEdit(src, m)
	}
	type candidate struct {
		start, end int // the bytes replaced
		indent     string
		kind       string
		what       string
	}
	var best *candidate
	for _, b := range st.blocks {
		if b.kind != platformBranch || lineStart(src, b.open) > from || b.shut < to {
			continue
		}
		if best == nil || b.open+1 > best.start {
			best = &candidate{start: b.open + 1, end: b.shut, indent: indentAt(src, b.shut), kind: lang.KindStatements,
				what: "platform if-branch"}
		}
	}
	for _, sp := range st.stmts {
		if lineStart(src, sp[0]) > from || sp[1] < to {
			continue
		}
		if best == nil || sp[0] > best.start {
			best = &candidate{start: sp[0], end: sp[1], kind: lang.KindStatements, what: "platform if-statement"}
		}
	}
	for _, pb := range branches {
		if pb.start > from || pb.end < to {
			continue
		}
		if best == nil || pb.start > best.start {
			best = &candidate{start: pb.start, end: pb.end, indent: indentAt(src, pb.start), kind: lang.KindPreprocessorBlock,
				what: "#" + pb.name + " " + pb.cond + " branch"}
		}
	}
	if best == nil {
		return nil, "not inside a platform if-branch, #if branch or platform member"
	}
	if m == nil || m.body == nil || m.body.open > best.start || m.body.shut < best.end {
		return nil, best.what + " outside a method body the rules can read"
	}
	stmt := earlyReturn(m)
	text := "\n" + best.indent + "    " + stmt + "\n" + best.indent
	switch {
	case best.kind == lang.KindPreprocessorBlock:
		text = best.indent + stmt + "\n"
	case best.what == "platform if-statement":
		text = "{ " + stmt + " }"
	}
	return &edit{start: best.start, end: best.end, text: text, kind: best.kind,
		detail: fmt.Sprintf("%s in %s: %s", best.what, m.name, stmt)}, ""
}

// bodyEdit replaces a member's whole body by its placeholder.
func bodyEdit(src []byte, m *member) (*edit, string) {
	if m.exprStart > 0 {
		if m.returnType == "void" || m.returnType == "" {
			return nil, "expression-bodied void member " + m.name + ": no placeholder expression"
		}
		z := zero(m)
		return &edit{start: m.exprStart, end: m.exprEnd, text: z, kind: lang.KindFunctionBody,
			detail: fmt.Sprintf("%s: => %s", m.name, z)}, ""
	}
	b := m.body
	indent := indentAt(src, b.shut)
	stmt := earlyReturn(m)
	return &edit{start: b.open + 1, end: b.shut, text: "\n" + indent + "    " + stmt + "\n" + indent, kind: lang.KindFunctionBody,
		detail: fmt.Sprintf("%s: body is %s", m.name, stmt)}, ""
}

// earlyReturn is the statement that ends m quietly.
func earlyReturn(m *member) string {
	var b strings.Builder
	for _, p := range m.outParams {
		fmt.Fprintf(&b, "%s = %s; ", p[1], zeroOf(p[0], false))
	}
	switch {
	case m.iterator:
		b.WriteString("yield break;")
	case m.returnType == "" || m.returnType == "void" || m.async && m.returnType == "Task" || m.async && m.returnType == "ValueTask":
		b.WriteString("return;")
	default:
		b.WriteString("return " + zero(m) + ";")
	}
	return b.String()
}

func zero(m *member) string { return zeroOf(m.returnType, m.async) }

// zeroOf is the quiet zero value of a type as written.
func zeroOf(t string, async bool) string {
	t = strings.TrimSpace(t)
	if async {
		if inner, ok := generic(t, "Task", "ValueTask"); ok {
			return zeroOf(inner, false)
		}
	}
	switch {
	case t == "string" || t == "String" || t == "System.String":
		return `""`
	case t == "bool" || t == "Boolean" || t == "System.Boolean":
		return "false"
	case strings.HasSuffix(t, "[]"):
		return "new " + strings.TrimSuffix(t, "[]") + "[0]"
	case t == "Task" || t == "System.Threading.Tasks.Task":
		return "System.Threading.Tasks.Task.CompletedTask"
	}
	if inner, ok := generic(t, "IEnumerable", "System.Collections.Generic.IEnumerable"); ok {
		return "System.Linq.Enumerable.Empty<" + inner + ">()"
	}
	if inner, ok := generic(t, "Task", "System.Threading.Tasks.Task"); ok {
		return "System.Threading.Tasks.Task.FromResult(" + zeroOf(inner, false) + ")"
	}
	return "default(" + t + ")"
}

// generic returns T of name<T> for one of the names.
func generic(t string, names ...string) (string, bool) {
	for _, n := range names {
		if strings.HasPrefix(t, n+"<") && strings.HasSuffix(t, ">") {
			return strings.TrimSpace(t[len(n)+1 : len(t)-1]), true
		}
	}
	return "", false
}

// enclosingMember is the innermost member (header to end of body) that
// the region src[from:to] touches.
func enclosingMember(st structure, from, to int) *member {
	var best *member
	for _, m := range st.members {
		if m.headerStart <= to && from <= memberEnd(m) && (best == nil || m.headerStart > best.headerStart) {
			best = m
		}
	}
	return best
}

func memberEnd(m *member) int {
	if m.exprStart > 0 {
		return m.exprEnd
	}
	return m.body.shut
}

func memberStart(m *member) int { return m.headerStart }

// ppBranch is the content of one branch of a platform #if group: from the
// line after its directive to the start of the next directive's line.
type ppBranch struct {
	name, cond string
	directive  int // offset of its #
	start, end int
}

// ppBranches finds the branches of every #if group whose condition (of
// any of its branches) names a platform symbol.
func ppBranches(src []byte, ds []directive) []ppBranch {
	type frame struct {
		platform bool
		branches []ppBranch
	}
	var stack []frame
	var out []ppBranch
	open := func(d directive) ppBranch {
		return ppBranch{name: d.name, cond: d.cond, directive: d.start, start: min(d.end+1, len(src))}
	}
	for _, d := range ds {
		switch d.name {
		case "if":
			stack = append(stack, frame{platform: platformSymbol.MatchString(d.cond), branches: []ppBranch{open(d)}})
		case "elif", "else":
			if len(stack) == 0 {
				continue
			}
			f := &stack[len(stack)-1]
			f.branches[len(f.branches)-1].end = lineStart(src, d.start)
			f.platform = f.platform || platformSymbol.MatchString(d.cond)
			f.branches = append(f.branches, open(d))
		case "endif":
			if len(stack) == 0 {
				continue
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			f.branches[len(f.branches)-1].end = lineStart(src, d.start)
			if f.platform {
				out = append(out, f.branches...)
			}
		}
	}
	return out
}

func insideBranch(bs []ppBranch, off int) bool {
	for _, b := range bs {
		if b.start <= off && off < b.end {
			return true
		}
	}
	return false
}

// apply makes the edits; one nested in another gives way to the outer one.
func apply(src []byte, edits []edit) []byte {
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].start != edits[j].start {
			return edits[i].start < edits[j].start
		}
		return edits[i].end > edits[j].end
	})
	var b strings.Builder
	pos := 0
	for _, e := range edits {
		if e.start < pos {
			continue // nested in (or the same as) the edit before
		}
		b.Write(src[pos:e.start])
		b.WriteString(e.text)
		pos = e.end
	}
	b.Write(src[pos:])
	return []byte(b.String())
}

func lineOffsets(src []byte) []int {
	offs := []int{0}
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			offs = append(offs, i+1)
		}
	}
	return offs
}

// lineEnd is the offset of the end of line n (its newline excluded).
func lineEnd(src []byte, starts []int, n int) int {
	if n < len(starts) {
		return starts[n] - 1
	}
	return len(src)
}

// lineStart is the offset of the start of the line holding src[off].
func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// indentAt is the white space that starts the line holding src[off].
func indentAt(src []byte, off int) string {
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

var _ lang.MaskRules = MaskRules{}
