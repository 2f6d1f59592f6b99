package initmanifest

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/osbench/osbench/manifests"
)

// Manifest is what init writes: one repository block.
type Manifest struct {
	Comment   []string // lines of the comment above the block, without "# "
	Name      string
	Preset    string
	Source    Source // Value of a path source as it is to be written (relative to the file)
	Toolchain string // "" leaves the preset's
	// Migrate lists the directions ("linux->windows"); nil leaves the
	// attribute out, an empty list writes migrate = [].
	Migrate []string
	// FlakyRuns is written when not 0 (the first look runs once).
	FlakyRuns int
	// Params are the preset parameters given with --param and --runner
	// (written as the repository's params, nil: none).
	Params map[string]cty.Value
	// Skips holds each platform's proposed skip list.
	Skips map[string][]Skip
	// EvalTimeouts holds, per platform, a proposed test.eval_timeout
	// (written only where it differs from the preset's).
	EvalTimeouts map[string]EvalTimeout
	// BuildTimeouts holds, per platform, a build.timeout given to init
	// (--build-timeout).
	BuildTimeouts map[string]string
}

// EvalTimeout is a proposed eval_timeout and where it came from.
type EvalTimeout struct {
	Value  string // a Go duration, e.g. "3m"
	Reason string // one line, written as a comment
	// Timeout, when set, raises the platform's timeout with it: the
	// eval_timeout would exceed (and lose to) the preset's.
	Timeout string
}

// Skip is one proposed skip entry and why.
type Skip struct {
	Test   string // the name the runner's skip flag takes
	Reason string // one line: the failing output's first line, "panicked", "timed out"
}

// Text renders the manifest in the canonical layout of `osbench fmt`.
func (m *Manifest) Text() []byte {
	f := hclwrite.NewEmptyFile()
	root := f.Body()
	for _, line := range m.Comment {
		root.AppendUnstructuredTokens(hclwrite.Tokens{comment(line)})
	}
	repo := root.AppendNewBlock("repository", []string{m.Name}).Body()
	if m.Preset != "" {
		repo.SetAttributeValue("preset", cty.StringVal(m.Preset))
	}
	src := repo.AppendNewBlock("source", nil).Body()
	for _, a := range m.Source.attributes() {
		src.SetAttributeValue(a[0], cty.StringVal(a[1]))
	}
	if m.Toolchain != "" {
		repo.SetAttributeValue("toolchain", cty.StringVal(m.Toolchain))
	}
	if m.Migrate != nil {
		repo.SetAttributeValue("migrate", stringList(m.Migrate))
	}
	if m.FlakyRuns != 0 {
		repo.SetAttributeValue("flaky_runs", cty.NumberIntVal(int64(m.FlakyRuns)))
	}
	if len(m.Params) > 0 {
		repo.SetAttributeValue("params", cty.ObjectVal(m.Params))
	}
	written := map[string]bool{}
	for p, skips := range m.Skips {
		written[p] = written[p] || len(skips) > 0
	}
	for p := range m.EvalTimeouts {
		written[p] = true
	}
	for p := range m.BuildTimeouts {
		written[p] = true
	}
	platforms := make([]string, 0, len(written))
	for p, ok := range written {
		if ok {
			platforms = append(platforms, p)
		}
	}
	sort.Strings(platforms)
	for _, p := range platforms {
		repo.AppendNewline()
		platform := repo.AppendNewBlock("platform", []string{p}).Body()
		if d, ok := m.BuildTimeouts[p]; ok {
			platform.AppendNewBlock("build", nil).Body().SetAttributeValue("timeout", cty.StringVal(d))
		}
		_, hasEval := m.EvalTimeouts[p]
		if !hasEval && len(m.Skips[p]) == 0 {
			continue
		}
		test := platform.AppendNewBlock("test", nil).Body()
		if et, ok := m.EvalTimeouts[p]; ok {
			if et.Reason != "" {
				test.AppendUnstructuredTokens(hclwrite.Tokens{comment(et.Reason)})
			}
			if et.Timeout != "" {
				test.SetAttributeValue("timeout", cty.StringVal(et.Timeout))
			}
			test.SetAttributeValue("eval_timeout", cty.StringVal(et.Value))
		}
		if skips := m.Skips[p]; len(skips) > 0 {
			test.SetAttributeRaw("skip", skipList(skips))
		}
	}
	return manifests.Format(f.Bytes())
}

// attributes are the source block's attributes, in the order a curator
// reads them: what, then its pin.
func (s Source) attributes() [][2]string {
	out := [][2]string{{s.Kind, s.Value}}
	if s.Commit != "" {
		out = append(out, [2]string{"commit", s.Commit})
	}
	if s.Sum != "" {
		out = append(out, [2]string{"sum", s.Sum})
	}
	if s.SHA256 != "" {
		out = append(out, [2]string{"sha256", s.SHA256})
	}
	return out
}

func stringList(items []string) cty.Value {
	if len(items) == 0 {
		return cty.ListValEmpty(cty.String)
	}
	vals := make([]cty.Value, len(items))
	for i, s := range items {
		vals[i] = cty.StringVal(s)
	}
	return cty.ListVal(vals)
}

// skipList is a list with one entry a line, each followed by its reason
// as a comment.
func skipList(skips []Skip) hclwrite.Tokens {
	toks := hclwrite.Tokens{
		{Type: hclsyntax.TokenOBrack, Bytes: []byte("[")},
		{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")},
	}
	for _, s := range skips {
		toks = append(toks, hclwrite.TokensForValue(cty.StringVal(s.Test))...)
		toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenComma, Bytes: []byte(",")})
		if s.Reason != "" {
			toks = append(toks, comment(s.Reason))
		} else {
			toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")})
		}
	}
	return append(toks, &hclwrite.Token{Type: hclsyntax.TokenCBrack, Bytes: []byte("]")})
}

// comment is a "# text" line comment; text is made one line.
func comment(text string) *hclwrite.Token {
	text = strings.Join(strings.Fields(text), " ")
	return &hclwrite.Token{Type: hclsyntax.TokenComment, Bytes: []byte("# " + text + "\n")}
}
