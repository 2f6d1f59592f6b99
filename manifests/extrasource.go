package manifests

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// ExtraSource is a second pinned tree placed inside the repository's at a
// fixed directory: the test framework a Debian "+ds" repack strips
// (fmtlib without test/gtest), a vendored dependency. It is not task code:
// differential coverage never looks at it, so it is never masked and never
// in a gold patch; each task records where it came from.
//
//	extra_source "gtest" {
//	  debian = "googletest=1.12.1-0.2"
//	  sha256 = "…"
//	  at     = "test/gtest"
//	}
type ExtraSource struct {
	Name   string // the block's label
	At     string // repository-relative, "/"-separated, clean, below the root
	Source Source
}

var extraSourceSchema = &hcl.BodySchema{
	Attributes: append([]hcl.AttributeSchema{{Name: "at", Required: true}}, sourceSchema.Attributes...),
}

type extraSourceBlock struct {
	Name      string
	At        *setting[string]
	Source    *sourceBlock
	DeclRange hcl.Range
}

func decodeExtraSourceBlock(block *hcl.Block, sc *scope) (*extraSourceBlock, hcl.Diagnostics) {
	e := &extraSourceBlock{Name: block.Labels[0], DeclRange: block.DefRange}
	diags := checkBlockName("extra_source", block)
	content, d := block.Body.Content(extraSourceSchema)
	diags = append(diags, d...)
	e.At, d = decodeAttr(content.Attributes["at"], sc.ctx, asTreeDir)
	diags = append(diags, d...)
	e.Source, d = decodeSourceContent(content, block.DefRange, sc)
	return e, append(diags, d...)
}

// asTreeDir accepts a directory inside the repository: relative,
// "/"-separated, without "." or ".." elements, and not .git.
func asTreeDir(name string, value cty.Value) (string, *valueError) {
	s, problem := asString(name, value)
	if problem != nil {
		return "", problem
	}
	clean := path.Clean(s)
	switch {
	case s == "" || clean == "." || path.IsAbs(s) || strings.Contains(s, `\`) || strings.HasPrefix(s, "~"):
		return "", invalidValue("%s must be a directory inside the repository, written relative to its root with /, as in \"test/gtest\", not %q.", name, s)
	case clean != s || clean == ".." || strings.HasPrefix(clean, "../"):
		return "", invalidValue("%s must be a clean path below the repository's root (no ., .. or doubled /), not %q.", name, s)
	case clean == ".git" || strings.HasPrefix(clean, ".git/"):
		return "", invalidValue("%s cannot place a tree inside .git.", name)
	}
	return clean, nil
}

// resolveExtraSources fills Repository.ExtraSources, sorted by At, and
// refuses two blocks of one name or two trees one inside the other.
func (r *resolver) resolveExtraSources(blocks []*extraSourceBlock, sc *scope) {
	byName := map[string]*extraSourceBlock{}
	for _, b := range blocks {
		if prev, dup := byName[b.Name]; dup {
			r.fail(errorAt(b.DeclRange, "Duplicate extra_source", fmt.Sprintf(
				"An extra_source %q is already declared at %s.", b.Name, position(prev.DeclRange))))
			continue
		}
		byName[b.Name] = b
		prefix := "extra_source." + b.Name + "."
		r.repo.Ranges["extra_source."+b.Name] = b.DeclRange
		at, ok := use(r, prefix+"at", b.At)
		if !ok || b.Source == nil {
			r.broken = true
			continue
		}
		e := ExtraSource{Name: b.Name, At: at}
		r.fillSource(&e.Source, prefix, b.Source, sc)
		r.repo.ExtraSources = append(r.repo.ExtraSources, e)
	}
	sort.Slice(r.repo.ExtraSources, func(i, j int) bool { return r.repo.ExtraSources[i].At < r.repo.ExtraSources[j].At })
	for i := 1; i < len(r.repo.ExtraSources); i++ {
		outer, inner := r.repo.ExtraSources[i-1], r.repo.ExtraSources[i]
		if inner.At == outer.At || strings.HasPrefix(inner.At, outer.At+"/") {
			r.fail(errorAt(r.repo.Ranges["extra_source."+inner.Name+".at"], "Overlapping extra_source", fmt.Sprintf(
				"extra_source %q places its tree at %q, inside %q where extra_source %q (%s) places its own; trees may not nest.",
				inner.Name, inner.At, outer.At, outer.Name, position(r.repo.Ranges["extra_source."+outer.Name+".at"]))))
		}
	}
}
