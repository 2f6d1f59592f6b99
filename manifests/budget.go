package manifests

import (
	"fmt"
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// A manifest is input from a curator, or from whoever sent one: evaluating
// it must end within seconds and bounded memory, with an error at its
// file:line:col, never a stack overflow (which no recover catches), an
// out-of-memory kill or a hang. The budget below is generous for real
// manifests (a few levels of nesting, lists of tens) and small for attacks.
const (
	// maxNesting bounds brackets, parentheses and braces open at once, and
	// runs of unary operators (- - - - 1): the parser recurses on each.
	maxNesting = 256
	// maxCollection bounds what range and setproduct may build.
	maxCollection = 100_000
	// maxFlakyRuns bounds flaky_runs: each run is a whole test suite.
	maxFlakyRuns = 100
	// maxSplit bounds split: each group is a mask and masked runs of both
	// suites.
	maxSplit = 32
	// maxManifestBytes bounds a manifest file: the parser holds it and its
	// syntax tree in memory (a 100 MB manifest took 5.9 GB); real ones are
	// a few KiB.
	maxManifestBytes = 1 << 20
	// maxPadding bounds the widths and precisions of format(),
	// formatlist() and the spaces of indent(): %1000000000d made a string
	// of that many bytes (3.9 GB, past 60 s).
	maxPadding = 10_000
)

// checkFormatWidths fails when a format string asks for a width or a
// precision above maxPadding (%[flags][width][.precision]verb, with
// %[n] argument indexes skipped).
func checkFormatWidths(format string) error {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			continue
		}
		for i < len(format) {
			c := format[i]
			switch {
			case c == '[':
				for i < len(format) && format[i] != ']' {
					i++
				}
				i++
				continue
			case c == '-' || c == '+' || c == '#' || c == ' ' || c == '0' && (i == 0 || format[i-1] < '0' || format[i-1] > '9') || c == '.':
				i++
				continue
			case c >= '0' && c <= '9':
				n := 0
				for i < len(format) && format[i] >= '0' && format[i] <= '9' {
					if n = n*10 + int(format[i]-'0'); n > maxPadding {
						return fmt.Errorf("a width or precision above %d in the format %q; a manifest never needs that much padding", maxPadding, format)
					}
					i++
				}
				continue
			}
			break
		}
	}
	return nil
}

// boundedFormat is format or formatlist with the widths of its format
// string bounded (checkFormatWidths).
func boundedFormat(f function.Function) function.Function {
	return guarded(f, func(args []cty.Value) error {
		if len(args) > 0 && args[0].IsKnown() && !args[0].IsNull() && args[0].Type() == cty.String {
			return checkFormatWidths(args[0].AsString())
		}
		return nil
	})
}

// boundedIndent is indent with its number of spaces bounded.
func boundedIndent(f function.Function) function.Function {
	return guarded(f, func(args []cty.Value) error {
		if len(args) > 0 && args[0].IsKnown() && !args[0].IsNull() && args[0].Type() == cty.Number {
			if n, _ := args[0].AsBigFloat().Float64(); n > maxPadding {
				return fmt.Errorf("indent by %.0f spaces; a manifest may indent by at most %d", n, maxPadding)
			}
		}
		return nil
	})
}

// guarded wraps f so that check runs on the arguments before f does.
func guarded(f function.Function, check func(args []cty.Value) error) function.Function {
	return function.New(&function.Spec{
		Description: f.Description(),
		Params:      f.Params(),
		VarParam:    f.VarParam(),
		Type: func(args []cty.Value) (cty.Type, error) {
			return f.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			if err := check(args); err != nil {
				return cty.DynamicVal, err
			}
			return f.Call(args)
		},
	})
}

// checkNesting scans src for nesting deeper than maxNesting before the
// parser sees it, skipping strings, heredocs and comments. It returns one
// diagnostic at the first place too deep, or none.
func checkNesting(name string, src []byte) hcl.Diagnostics {
	if len(src) > maxManifestBytes {
		pos := hcl.Pos{Line: 1, Column: 1}
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Manifest too large",
			Detail:   fmt.Sprintf("This file has %d bytes; a manifest may have at most %d (real ones have a few thousand), and parsing a huge one could exhaust memory.", len(src), maxManifestBytes),
			Subject:  &hcl.Range{Filename: name, Start: pos, End: pos},
		}}
	}
	depth, unary := 0, 0
	line, col := 1, 1
	at := func(i int) hcl.Diagnostics {
		pos := hcl.Pos{Line: line, Column: col, Byte: i}
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Expression nested too deeply",
			Detail:   fmt.Sprintf("More than %d brackets, parentheses, braces or unary operators are open here; a manifest never needs that many, and evaluating it could exhaust the stack.", maxNesting),
			Subject:  &hcl.Range{Filename: name, Start: pos, End: pos},
		}}
	}
	advance := func(b byte) {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '"':
			// A quoted string: its brackets are text (an interpolation's
			// quotes split it in pieces, each skipped the same way).
			advance(c)
			for i+1 < len(src) && src[i+1] != '"' && src[i+1] != '\n' {
				i++
				if src[i] == '\\' && i+1 < len(src) {
					advance(src[i])
					i++
				}
				advance(src[i])
			}
			if i+1 < len(src) && src[i+1] == '"' {
				i++
				advance(src[i])
			}
			continue
		case c == '<' && i+1 < len(src) && src[i+1] == '<':
			// A heredoc: skip to the line holding only its delimiter.
			if end, ok := heredocEnd(src, i); ok {
				for ; i < end; i++ {
					advance(src[i])
				}
				i--
				continue
			}
		case c == '#' || c == '/' && i+1 < len(src) && src[i+1] == '/':
			for ; i+1 < len(src) && src[i+1] != '\n'; i++ {
				advance(src[i])
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			for ; i+1 < len(src) && !(src[i] == '*' && src[i+1] == '/'); i++ {
				advance(src[i])
			}
		case c == '(' || c == '[' || c == '{':
			if depth++; depth > maxNesting {
				return at(i)
			}
			unary = 0
		case c == ')' || c == ']' || c == '}':
			depth--
			unary = 0
		case c == '-' || c == '!':
			if unary++; unary > maxNesting {
				return at(i)
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			// Blanks do not end a run of unary operators.
		default:
			unary = 0
		}
		advance(c)
	}
	return nil
}

// heredocEnd returns the offset just past the heredoc starting at i
// (<<EOT or <<-EOT), or false when there is none.
func heredocEnd(src []byte, i int) (int, bool) {
	j := i + 2
	if j < len(src) && src[j] == '-' {
		j++
	}
	start := j
	for j < len(src) && (src[j] == '_' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= '0' && src[j] <= '9') {
		j++
	}
	delim := string(src[start:j])
	if delim == "" {
		return 0, false
	}
	for j < len(src) {
		nl := j
		for nl < len(src) && src[nl] != '\n' {
			nl++
		}
		if line := string(src[j:nl]); j > start+len(delim) && trimBlank(line) == delim {
			return nl, true
		}
		j = nl + 1
	}
	return len(src), true
}

func trimBlank(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// boundedRange is stdlib's range with a bound on the list it makes.
func boundedRange(inner function.Function) function.Function {
	return bounded(inner, func(args []cty.Value) (float64, bool) {
		nums := make([]*big.Float, len(args))
		for i, a := range args {
			if !a.IsKnown() || a.IsNull() || a.Type() != cty.Number {
				return 0, false
			}
			nums[i] = a.AsBigFloat()
		}
		start, end, step := new(big.Float), new(big.Float), big.NewFloat(1)
		switch len(nums) {
		case 1:
			end = nums[0]
		case 2:
			start, end = nums[0], nums[1]
		case 3:
			start, end, step = nums[0], nums[1], nums[2]
		default:
			return 0, false
		}
		span, _ := new(big.Float).Sub(end, start).Float64()
		st, _ := step.Float64()
		if st == 0 {
			return 0, false // stdlib reports it
		}
		n := span / st
		if n < 0 {
			n = -n
		}
		return n, true
	})
}

// boundedSetProduct is stdlib's setproduct with a bound on its size.
func boundedSetProduct(inner function.Function) function.Function {
	return bounded(inner, func(args []cty.Value) (float64, bool) {
		n := 1.0
		for _, a := range args {
			if !a.IsKnown() || a.IsNull() || !a.CanIterateElements() {
				return 0, false
			}
			n *= float64(a.LengthInt())
		}
		return n, true
	})
}

// bounded wraps f so that a call whose result would hold more than
// maxCollection elements fails with a clear error before any is made.
func bounded(f function.Function, size func(args []cty.Value) (float64, bool)) function.Function {
	spec := &function.Spec{
		Description: f.Description(),
		Params:      f.Params(),
		VarParam:    f.VarParam(),
		Type: func(args []cty.Value) (cty.Type, error) {
			return f.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			if n, ok := size(args); ok && n > maxCollection {
				return cty.DynamicVal, fmt.Errorf("the result would hold about %.0f elements; a manifest may build at most %d", n, maxCollection)
			}
			return f.Call(args)
		},
	}
	return function.New(spec)
}
