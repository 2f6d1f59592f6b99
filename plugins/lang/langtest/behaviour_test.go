package langtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/plugins/verify"
	"github.com/osbench/osbench/schemas"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// behaviourRoots are the fixture trees whose every source file the
// behaviour goldens pin: the fixture repositories and the languages'
// conformance fixtures.
var behaviourRoots = []string{
	"../../../testdata/repos",
	"../golang/testdata/conformance",
	"../cfamily/testdata/conformance",
	"../rust/testdata/conformance",
	"../csharp/testdata/conformance",
}

type behaviourFile struct {
	name string // as the goldens show it: the root (without its leading ../) and the path under it
	path string // repo-relative path the rules see
	src  []byte
	lang string
}

func behaviourFiles(t *testing.T) []behaviourFile {
	t.Helper()
	var out []behaviourFile
	for _, root := range behaviourRoots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			l := lang.Of(p)
			if l == "" {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			name := strings.TrimLeft(filepath.ToSlash(root), "./") + "/" + rel
			// The rules see a fixture repository's path inside its repository.
			inRepo := rel
			if i := strings.IndexByte(rel, '/'); i >= 0 && strings.HasSuffix(root, "repos") {
				inRepo = rel[i+1:]
			}
			out = append(out, behaviourFile{name: name, path: inRepo, src: src, lang: l})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	if len(out) < 50 {
		t.Fatalf("only %d fixture files found under %v", len(out), behaviourRoots)
	}
	return out
}

// TestBehaviourGoldens pins what the languages' front ends, lexers and
// rule sets compute over every fixture file, so that moving code between
// packages provably changes nothing: the line classes, the functions, the
// rules verifier's verdict on every line as a region of its own (in both
// directions) and on every function, and the rules masker's output for
// every code line and every function of the braced languages (the Go
// masker is pinned by its own goldens in plugins/lang/golang).
func TestBehaviourGoldens(t *testing.T) {
	files := behaviourFiles(t)
	var lines, verdicts, masks bytes.Buffer
	var nLines, nVerdicts, nMasks int
	ctx := context.Background()
	for _, f := range files {
		kinds := lang.ClassifyLines(f.lang, f.src)
		fmt.Fprintf(&lines, "%s %s ", f.name, f.lang)
		for _, k := range kinds {
			lines.WriteByte("cbk"[k])
		}
		lines.WriteByte('\n')
		nLines += len(kinds)

		fmt.Fprintf(&verdicts, "== %s (%s)\n", f.name, f.path)
		funcs, err := verify.Functions(f.path, f.src)
		if err != nil {
			fmt.Fprintf(&verdicts, "functions: error %v\n", err)
		}
		for _, fn := range funcs {
			fmt.Fprintf(&verdicts, "func %s %d-%d\n", fn.Name, fn.From, fn.To)
		}
		var regions []schemas.Region
		for l := 1; l <= len(kinds); l++ {
			regions = append(regions, schemas.Region{File: f.path, Start: l, End: l, Lines: []int{l}, SourceCompiled: true})
		}
		for _, fn := range funcs {
			regions = append(regions, schemas.Region{File: f.path, Start: fn.From, End: fn.To})
		}
		for _, dir := range [][2]string{{"linux", "windows"}, {"windows", "linux"}} {
			in := verify.Input{Path: f.path, Source: f.src, Regions: append([]schemas.Region(nil), regions...), SourceOS: dir[0], TargetOS: dir[1]}
			if dir[0] == "windows" {
				for i := range in.Regions {
					in.Regions[i].SourceCompiled = !in.Regions[i].SourceCompiled
				}
			}
			vs, err := verify.Rules{}.Verify(ctx, in)
			if err != nil {
				fmt.Fprintf(&verdicts, "%s->%s: error %v\n", dir[0], dir[1], err)
				continue
			}
			writeVerdicts(t, &verdicts, dir[0]+"->"+dir[1], in.Regions, vs)
			nVerdicts += len(vs)
		}

		if f.lang == lang.Go || lang.IsTestFile(f.path) {
			continue
		}
		fmt.Fprintf(&masks, "== %s\n", f.name)
		for i, k := range kinds {
			if k == lang.LineCode {
				writeMask(ctx, &masks, f, fmt.Sprintf("line %d", i+1), [][2]int{{i + 1, i + 1}}, false)
				nMasks++
			}
		}
		for _, fn := range funcs {
			if fn.To-fn.From >= 2 {
				body := [][2]int{{fn.From + 1, fn.To - 1}}
				writeMask(ctx, &masks, f, fmt.Sprintf("body of %s", fn.Name), body, false)
				writeMask(ctx, &masks, f, fmt.Sprintf("coarse %s", fn.Name), body, true)
				nMasks += 2
			}
		}
	}
	t.Logf("pinned %d files: %d classified lines, %d verdicts, %d masks", len(files), nLines, nVerdicts, nMasks)
	checkBehaviourGolden(t, "lines.golden", lines.Bytes())
	checkBehaviourGolden(t, "verdicts.golden", verdicts.Bytes())
	checkBehaviourGolden(t, "masks.golden", masks.Bytes())
}

const noEvidence = "; no platform evidence: no guard (build tag, file suffix, OS check, preprocessor or cfg condition) and no OS-specific API, path, or encoding; the target-only coverage likely comes from tests skipped on the source or from timing"

// writeVerdicts writes one line per run of regions with the same verdict
// (the explanation's "lines a-b" prefix, which only restates the region,
// taken off), so the golden stays readable.
func writeVerdicts(t *testing.T, b *bytes.Buffer, dir string, regions []schemas.Region, vs []schemas.Verdict) {
	t.Helper()
	prev, from, to := "", 0, 0
	flush := func() {
		if prev != "" {
			fmt.Fprintf(b, "%s %d-%d %s\n", dir, from, to, prev)
		}
	}
	for i, v := range vs {
		r := regions[i]
		prefix := fmt.Sprintf("lines %d-%d", r.Start, r.End)
		if !strings.HasPrefix(v.Explanation, prefix) {
			t.Fatalf("verdict of %d-%d explains %q", r.Start, r.End, v.Explanation)
		}
		// The false-positive sentence is one constant of plugins/verify
		// (pinned by its own golden); here it only makes the file long.
		why := strings.Replace(strings.TrimPrefix(v.Explanation, prefix), noEvidence, "; (no platform evidence)", 1)
		s := fmt.Sprintf("%s %.2f group=%s area=%q:%s", v.Label, v.Confidence, v.FeatureGroup, v.FunctionalArea, why)
		if r.Start != r.End || s != prev || r.Start != to+1 {
			flush()
			prev, from = s, r.Start
		}
		to = r.End
		if r.Start != r.End {
			flush()
			prev = ""
		}
	}
	flush()
}

// writeMask writes the actions of one mask and a digest of its output.
func writeMask(ctx context.Context, b *bytes.Buffer, f behaviourFile, what string, spans [][2]int, coarse bool) {
	var regions []schemas.VerifiedRegion
	for _, s := range spans {
		regions = append(regions, schemas.VerifiedRegion{
			Region:  schemas.Region{File: f.path, Start: s[0], End: s[1], SourceCompiled: true},
			Verdict: schemas.Verdict{Label: schemas.LabelConditional, Verifier: "test"},
		})
	}
	out, err := mask.Rules{}.Mask(ctx, mask.Input{Path: f.path, Source: f.src, Regions: regions, Coarse: coarse})
	if err != nil {
		fmt.Fprintf(b, "%s: error %v\n", what, err)
		return
	}
	var acts []string
	for _, a := range out.Actions {
		acts = append(acts, fmt.Sprintf("%s %d-%d %s", a.Kind, a.Region.Start, a.Region.End, a.Detail))
	}
	digest := "unchanged"
	if !bytes.Equal(out.Source, f.src) {
		digest = fmt.Sprintf("%x", sha256.Sum256(out.Source))[:16]
	}
	fmt.Fprintf(b, "%s: %s [%s]\n", what, digest, strings.Join(acts, "; "))
}

func checkBehaviourGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "behaviour", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	shown := 0
	for i := 0; i < max(len(gl), len(wl)) && shown < 20; i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Errorf("%s line %d:\n got %s\nwant %s", name, i+1, g, w)
			shown++
		}
	}
	if shown == 0 {
		t.Errorf("%s differs from %s", name, path)
	}
}
