// Package langtest is the conformance suite every language of
// plugins/lang runs over its fixtures, as restic's backends share one test
// suite: a language added in part fails it with a message that names what
// is missing.
//
// A language's fixtures are the files under
// plugins/lang/<package>/testdata/conformance/ (one directory per language
// for a package of several, named after the language). A line holding the
// marker "osbench:target" is target-platform code: each run of marked
// lines is one region, in which the language's verify front end must find
// a function and a guard or fact, which its verify rules must find
// platform-specific and its mask rules must mask. A file whose name the
// language's test-file rule accepts is a test fixture: it must hold no
// marker, and IsTestFile must say so.
//
// Beside the suite, TestBehaviourGoldens (testdata/behaviour/) pins what the
// lexer, the verify front ends and the rule sets compute over every fixture
// file — line classes, functions, the rules verdict of every line and
// function in both directions, the braced maskers' output for every code
// line and function — so that a refactor proves it changes nothing.
package langtest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/schemas"
)

// Marker marks a fixture line as target-platform code.
const Marker = "osbench:target"

// Fixture is one file of a language's conformance fixtures.
type Fixture struct {
	Path    string // as the rules see it: the file's name
	Source  []byte
	Regions []schemas.Region // the runs of marked lines
}

// Load reads the fixtures of a directory.
func Load(dir string) ([]Fixture, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("conformance fixtures: %w", err)
	}
	var out []Fixture
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		f := Fixture{Path: e.Name(), Source: src}
		for i, l := range strings.Split(string(src), "\n") {
			if !strings.Contains(l, Marker) {
				continue
			}
			n := i + 1
			if k := len(f.Regions); k > 0 && f.Regions[k-1].End == n-1 {
				f.Regions[k-1].End = n
				f.Regions[k-1].Lines = append(f.Regions[k-1].Lines, n)
				continue
			}
			f.Regions = append(f.Regions, schemas.Region{File: f.Path, Start: n, End: n, Lines: []int{n}, SourceCompiled: true})
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// Run runs the suite for the language name of r over fixtures.
func Run(t *testing.T, r *lang.Registry, name string, fixtures []Fixture) {
	t.Helper()
	if err := r.CheckLanguage(name); err != nil {
		t.Fatalf("language %q is not whole:\n%v", name, err)
	}
	l, _ := r.Lookup(name)
	for _, ext := range l.Extensions {
		if got := r.Of("x" + strings.ToUpper(ext)); got != name {
			t.Errorf("extension %s: Of says %q, want %q", ext, got, name)
		}
	}
	for _, st := range l.SkipStyles {
		if args := st.Args([]string{"TestA"}); len(args) == 0 {
			t.Errorf("skip style %s spells no flags for one entry", st.Name)
		}
		if got, ok := r.SkipStyle(st.Name); !ok || got.Name != st.Name {
			t.Errorf("skip style %s: the registry does not find it", st.Name)
		}
	}
	var sources, tests int
	for _, f := range fixtures {
		if r.Of(f.Path) != name {
			continue // a fixture of the package's other language
		}
		isTest := r.IsTestFile(f.Path)
		switch {
		case isTest && len(f.Regions) > 0:
			t.Errorf("%s: IsTestFile says test file, but it holds %s lines", f.Path, Marker)
		case isTest:
			tests++
		case len(f.Regions) == 0:
			t.Errorf("%s: neither a test file (by %s's IsTestName) nor a fixture with %s lines", f.Path, name, Marker)
		default:
			sources++
			t.Run(f.Path, func(t *testing.T) { runSource(t, r, name, f) })
		}
	}
	if sources == 0 {
		t.Errorf("language %q: no source fixture with %s lines", name, Marker)
	}
	if tests == 0 {
		t.Errorf("language %q: no test-file fixture its IsTestName accepts", name)
	}
}

func runSource(t *testing.T, r *lang.Registry, name string, f Fixture) {
	ctx := context.Background()
	// The line classifier: one kind per line; the marker is a comment, so
	// a marked line is code with a comment, and the file has comment lines.
	kinds := r.ClassifyLines(name, f.Source)
	if want := bytes.Count(f.Source, []byte("\n")); len(kinds) != want {
		t.Errorf("ClassifyLines: %d kinds for %d lines", len(kinds), want)
	}
	comments := 0
	for i, k := range kinds {
		if k == lang.LineComment {
			comments++
		}
		for _, reg := range f.Regions {
			if i+1 >= reg.Start && i+1 <= reg.End && k != lang.LineCode {
				t.Errorf("ClassifyLines: target line %d is not code", i+1)
			}
		}
	}
	if comments == 0 {
		t.Errorf("ClassifyLines: no comment line found; the fixture has one")
	}

	// The verify front end: the file's lines, and a function and a guard
	// or fact on every region.
	l, _ := r.Lookup(name)
	model, err := l.Evidence.Read(f.Path, f.Source)
	if err != nil {
		t.Fatalf("verify front end: %v", err)
	}
	if want := bytes.Count(f.Source, []byte("\n")); model.Lines != want {
		t.Errorf("verify front end: %d lines, want %d", model.Lines, want)
	}
	for _, reg := range f.Regions {
		if _, ok := model.FuncAt(reg.Start); !ok {
			t.Errorf("verify front end: no function around line %d", reg.Start)
		}
		found := len(model.FileGuards) > 0
		for l := reg.Start; l <= reg.End; l++ {
			found = found || len(model.GuardsAt(l)) > 0
			for _, fact := range model.Facts {
				found = found || fact.Line == l
			}
		}
		if !found {
			t.Errorf("verify front end: no guard and no fact on lines %d-%d", reg.Start, reg.End)
		}
	}

	v, _ := r.Verify(name)
	verdicts, err := v.Verify(ctx, lang.VerifyInput{Path: f.Path, Source: f.Source, Language: name, Regions: f.Regions,
		SourceOS: "linux", TargetOS: "windows"})
	if err != nil {
		t.Fatalf("verify rules: %v", err)
	}
	if len(verdicts) != len(f.Regions) {
		t.Fatalf("verify rules: %d verdicts for %d regions", len(verdicts), len(f.Regions))
	}
	vrs := make([]schemas.VerifiedRegion, len(f.Regions))
	for i, vd := range verdicts {
		if vd.Label == schemas.LabelFalsePositive {
			t.Errorf("verify rules: region %d-%d judged false-positive: %s", f.Regions[i].Start, f.Regions[i].End, vd.Explanation)
		}
		vrs[i] = schemas.VerifiedRegion{Region: f.Regions[i], Verdict: vd}
	}

	m, _ := r.Mask(name)
	out, err := m.Mask(ctx, lang.MaskInput{Path: f.Path, Source: f.Source, Language: name, Regions: vrs})
	if err != nil {
		t.Fatalf("mask rules: %v", err)
	}
	for _, a := range out.Actions {
		if a.Kind == lang.KindUnmasked || a.Kind == lang.KindSkipped {
			t.Errorf("mask rules: region %d-%d %s: %s", a.Region.Start, a.Region.End, a.Kind, a.Detail)
		}
	}
	if bytes.Equal(out.Source, f.Source) {
		t.Errorf("mask rules: the masked file is the file")
	}
	if bytes.Contains(out.Source, []byte(Marker)) {
		t.Errorf("mask rules: a target line survived the mask:\n%s", out.Source)
	}
	// Nothing before the first region or after the last one's function
	// changes: the head of the file is kept byte for byte.
	first := f.Regions[0].Start
	head := strings.Join(strings.SplitAfter(string(f.Source), "\n")[:first-2], "")
	if !strings.HasPrefix(string(out.Source), head) {
		t.Errorf("mask rules: lines before the first region changed:\n%s", out.Source)
	}
	again, err := m.Mask(ctx, lang.MaskInput{Path: f.Path, Source: f.Source, Language: name})
	if err != nil || !bytes.Equal(again.Source, f.Source) {
		t.Errorf("mask rules: no regions changed the file (err %v)", err)
	}
}
