package langtest

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/osbench/osbench/plugins/lang/csharp"
	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/plugins/verify"
	"github.com/osbench/osbench/schemas"
)

// The csplat fixture through the registered verifier and masker, as the
// verify and mask steps call them: every Windows region is verified
// platform-specific, masked, and the masked tree passes the mcs check for
// Windows; the fixture's test project is never masked.
func TestCSharpFixtureVerifiedMaskedAndCompiled(t *testing.T) {
	if _, err := exec.LookPath("mcs"); err != nil {
		t.Skip("mcs not installed (scripts/deps.sh installs mono-mcs)")
	}
	const root = "../../../testdata/repos/csplat"
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(root)); err != nil {
		t.Fatal(err)
	}
	regions := map[string][][2]int{
		"src/Csplat/PathRules.cs": {{14, 14}, {22, 26}, {35, 36}, {52, 52}},
		"src/Csplat/Attrs.cs":     {{13, 13}, {21, 22}, {26, 26}},
		"src/Csplat/LineEnd.cs":   {{10, 10}, {19, 19}, {27, 27}},
	}
	ctx := context.Background()
	v, _ := verify.Lookup("rules")
	m, _ := mask.Lookup("rules")
	for file, spans := range regions {
		src, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		var rs []schemas.Region
		for _, s := range spans {
			rs = append(rs, schemas.Region{File: file, Start: s[0], End: s[1], SourceCompiled: true})
		}
		verdicts, err := v.Verify(ctx, verify.Input{Path: file, Source: src, Regions: rs, SourceOS: "linux", TargetOS: "windows"})
		if err != nil {
			t.Fatal(err)
		}
		var vrs []schemas.VerifiedRegion
		for i, vd := range verdicts {
			if vd.Label == schemas.LabelFalsePositive {
				t.Errorf("%s:%d-%d judged false-positive: %s", file, rs[i].Start, rs[i].End, vd.Explanation)
			}
			vrs = append(vrs, schemas.VerifiedRegion{Region: rs[i], Verdict: vd})
		}
		out, err := m.Mask(ctx, mask.Input{Path: file, Source: src, Regions: vrs})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range out.Actions {
			if a.Kind == mask.KindUnmasked {
				t.Errorf("%s:%d-%d unmasked: %s", file, a.Region.Start, a.Region.End, a.Detail)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, file), out.Source, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	argv := csharp.BuildCheck("windows")
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	if log, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("masked csplat does not compile for windows: %v\n%s", err, log)
	}
	err := fs.WalkDir(os.DirFS(root), "tests", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".cs" {
			return err
		}
		src, _ := os.ReadFile(filepath.Join(root, p))
		if _, err := m.Mask(ctx, mask.Input{Path: p, Source: src}); err == nil {
			t.Errorf("%s: the masker accepted a test file", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
