package csharp

import (
	"regexp"
	"strings"
)

var (
	// platformCheck is a condition that selects a platform at run time.
	platformCheck = regexp.MustCompile(`\bOperatingSystem\s*\.\s*Is\w+\s*\(|\bRuntimeInformation\s*\.\s*IsOSPlatform\s*\(`)
	// platformAttr marks a member or type as one platform's.
	platformAttr = regexp.MustCompile(`\b(SupportedOSPlatform|UnsupportedOSPlatform)(Attribute)?\s*\(`)
	// platformSymbol is a conditional-compilation symbol naming a platform
	// (the same list plugins/verify reads).
	platformSymbol = regexp.MustCompile(`\b(WINDOWS|LINUX|OSX|MACOS|UNIX|FREEBSD|ANDROID|IOS|WIN32|WIN64)\b`)
	containerWord  = map[string]bool{"class": true, "struct": true, "interface": true, "record": true, "namespace": true, "enum": true}
	modifiers      = map[string]bool{"public": true, "private": true, "protected": true, "internal": true, "static": true,
		"virtual": true, "override": true, "abstract": true, "sealed": true, "async": true, "extern": true, "unsafe": true,
		"new": true, "partial": true, "readonly": true}
	statementWord = map[string]bool{"if": true, "else": true, "for": true, "foreach": true, "while": true, "do": true,
		"switch": true, "using": true, "lock": true, "try": true, "catch": true, "finally": true, "fixed": true,
		"checked": true, "unchecked": true, "return": true, "get": true, "set": true, "init": true, "add": true, "remove": true}
)

type blockKind int

const (
	plainBlock blockKind = iota
	containerBlock
	memberBlock
	platformBranch // the block of an if (or else) on a platform check
)

// block is a { … } with what its header says.
type block struct {
	kind       blockKind
	open, shut int // offsets of { and }
	parent     *block
	member     *member // for memberBlock: the member it is the body of
	platform   bool    // the block, or an enclosing type, is one platform's ([SupportedOSPlatform])
}

// member is a method, constructor or operator with a body.
type member struct {
	name       string
	returnType string // "" for constructors
	outParams  [][2]string
	async      bool
	iterator   bool // its body yields
	attrs      bool // has a platform attribute
	// exprStart, exprEnd: the expression of an expression-bodied member
	// (after =>, before ;); zero for block bodies.
	exprStart, exprEnd int
	headerStart        int // offset of the first token after the attributes
	body               *block
}

// structure is the blocks and members of a file.
type structure struct {
	blocks  []*block
	members []*member
	// stmts are the braceless statements of platform ifs
	// (if (OperatingSystem.IsWindows()) return x;): offsets of the
	// statement's first byte and of the end of its ;.
	stmts [][2]int
}

// read finds the blocks and members of a lexed file.
func read(src []byte, lx lexed) structure {
	var st structure
	var stack []*block
	var header []token
	prevClosed := map[int]*block{} // depth → the block that just closed there
	top := func() *block {
		if len(stack) == 0 {
			return nil
		}
		return stack[len(stack)-1]
	}
	inContainer := func() bool { b := top(); return b == nil || b.kind == containerBlock }
	for _, t := range lx.tokens {
		switch t.text {
		case "{":
			b := &block{open: t.start, parent: top()}
			if p := b.parent; p != nil && p.platform && p.kind == containerBlock {
				b.platform = true
			}
			switch {
			case hasContainerWord(header):
				b.kind = containerBlock
				b.platform = b.platform || hasPlatformAttr(src, header)
			case len(header) > 0 && header[0].text == "if" && platformCheck.MatchString(text(src, header)):
				b.kind = platformBranch
			case len(header) > 0 && header[0].text == "else":
				if prev := prevClosed[len(stack)]; prev != nil && prev.kind == platformBranch || platformCheck.MatchString(text(src, header)) {
					b.kind = platformBranch
				}
			case inContainer():
				if m := parseMember(src, header); m != nil {
					b.kind = memberBlock
					m.body = b
					m.attrs = m.attrs || b.platform
					b.member = m
					b.platform = b.platform || m.attrs
					st.members = append(st.members, m)
				}
			}
			st.blocks = append(st.blocks, b)
			stack = append(stack, b)
			header = nil
		case "}":
			if b := top(); b != nil {
				b.shut = t.start
				stack = stack[:len(stack)-1]
				prevClosed[len(stack)] = b
			}
			header = nil
		case ";":
			if inContainer() {
				if m := parseMember(src, header); m != nil && m.exprStart > 0 {
					m.exprEnd = t.start
					m.attrs = m.attrs || (top() != nil && top().platform)
					st.members = append(st.members, m)
				}
			}
			if m := innermostMember(stack); m != nil {
				if hasWord(header, "yield") {
					m.iterator = true
				}
				if start, ok := bracelessPlatformIf(src, header); ok {
					st.stmts = append(st.stmts, [2]int{start, t.end})
				}
			}
			header = nil
		default:
			if len(header) == 0 {
				// A statement other than else ends the if-chain of the
				// block closed before it.
				if t.text != "else" {
					delete(prevClosed, len(stack))
				}
			}
			header = append(header, t)
		}
	}
	return st
}

// innermostMember is the member whose body holds the top of the stack.
func innermostMember(stack []*block) *member {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].kind == memberBlock {
			return stack[i].member
		}
	}
	return nil
}

// bracelessPlatformIf returns where the statement of "if (platform check)
// statement" starts, for a header ending at that statement's ;.
func bracelessPlatformIf(src []byte, header []token) (int, bool) {
	if len(header) < 4 || header[0].text != "if" || header[1].text != "(" {
		return 0, false
	}
	closeIdx := matching(header, 1)
	if closeIdx < 0 || closeIdx+1 >= len(header) || !platformCheck.MatchString(text(src, header[:closeIdx+1])) {
		return 0, false
	}
	return header[closeIdx+1].start, true
}

func text(src []byte, ts []token) string {
	if len(ts) == 0 {
		return ""
	}
	return string(src[ts[0].start:ts[len(ts)-1].end])
}

func hasContainerWord(ts []token) bool {
	depth := 0
	for _, t := range ts {
		switch t.text {
		case "(", "[":
			depth++
		case ")", "]":
			depth--
		}
		if depth == 0 && containerWord[t.text] {
			return true
		}
	}
	return false
}

func hasWord(ts []token, w string) bool {
	for _, t := range ts {
		if t.text == w {
			return true
		}
	}
	return false
}

// hasPlatformAttr reports whether the attribute groups at the start of a
// header name a platform.
func hasPlatformAttr(src []byte, ts []token) bool {
	attrs, _ := splitAttributes(ts)
	for _, a := range attrs {
		if platformAttr.MatchString(text(src, a)) {
			return true
		}
	}
	return false
}

// splitAttributes sets the [ … ] groups at the start of a header apart.
func splitAttributes(ts []token) (attrs [][]token, rest []token) {
	for len(ts) > 0 && ts[0].text == "[" {
		depth, end := 0, -1
		for i, t := range ts {
			switch t.text {
			case "[":
				depth++
			case "]":
				depth--
			}
			if depth == 0 {
				end = i
				break
			}
		}
		if end < 0 {
			return attrs, nil
		}
		attrs = append(attrs, ts[:end+1])
		ts = ts[end+1:]
	}
	return attrs, ts
}

// parseMember reads a member header: [attributes] modifiers type name(params)
// (a constructor has no type), optionally followed by => for an
// expression body. nil when the header is not one (a property, a field,
// a statement).
func parseMember(src []byte, header []token) *member {
	attrs, ts := splitAttributes(header)
	m := &member{}
	for _, a := range attrs {
		m.attrs = m.attrs || platformAttr.MatchString(text(src, a))
	}
	i := 0
	for i < len(ts) && modifiers[ts[i].text] {
		m.async = m.async || ts[i].text == "async"
		i++
	}
	open := -1
	depth := 0
	for j := i; j < len(ts); j++ {
		switch ts[j].text {
		case "<":
			depth++
		case ">":
			depth--
		case "(":
			if depth == 0 {
				open = j
			}
		}
		if open >= 0 {
			break
		}
	}
	if open < 0 || open == i || statementWord[ts[i].text] || ts[i].text == "=" {
		return nil
	}
	nameEnd := open // a generic method: Name<T>(…)
	if ts[nameEnd-1].text == ">" {
		d := 0
		for nameEnd--; nameEnd > i; nameEnd-- {
			if ts[nameEnd].text == ">" {
				d++
			} else if ts[nameEnd].text == "<" {
				d--
				if d == 0 {
					break
				}
			}
		}
	}
	if nameEnd-1 < i {
		return nil // no name before the < … >
	}
	nameTok := ts[nameEnd-1]
	if !isIdentByte(nameTok.text[0]) || statementWord[nameTok.text] {
		return nil
	}
	m.name = nameTok.text
	m.headerStart = ts[i].start
	if nameEnd-1 > i {
		m.returnType = strings.Join(strings.Fields(string(src[ts[i].start:ts[nameEnd-2].end])), " ")
	}
	closeIdx := matching(ts, open)
	if closeIdx < 0 {
		return nil
	}
	m.outParams = outParams(src, ts[open+1:closeIdx])
	for j := closeIdx + 1; j < len(ts); j++ {
		if ts[j].text == "=>" {
			if j+1 < len(ts) {
				m.exprStart = ts[j+1].start
			} else {
				m.exprStart = ts[j].end
			}
			break
		}
	}
	return m
}

func matching(ts []token, open int) int {
	depth := 0
	for j := open; j < len(ts); j++ {
		switch ts[j].text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// outParams returns the (type, name) of each out parameter.
func outParams(src []byte, ts []token) [][2]string {
	var out [][2]string
	var param []token
	flush := func() {
		if len(param) >= 3 && param[0].text == "out" {
			name := param[len(param)-1]
			out = append(out, [2]string{strings.Join(strings.Fields(text(src, param[1:len(param)-1])), " "), name.text})
		}
		param = nil
	}
	depth := 0
	for _, t := range ts {
		switch t.text {
		case "<", "(", "[":
			depth++
		case ">", ")", "]":
			depth--
		case ",":
			if depth == 0 {
				flush()
				continue
			}
		}
		param = append(param, t)
	}
	flush()
	return out
}
