package csharp

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/schemas"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

const fixture = "../../../testdata/repos/csplat"

// fixtureMasks are the target (Windows) regions of the csplat fixture, as
// differential coverage and the verifier would hand them over.
var fixtureMasks = map[string]struct {
	file    string
	regions [][2]int
}{
	"pathrules": {"src/Csplat/PathRules.cs", [][2]int{{14, 14}, {22, 26}, {35, 36}, {52, 52}}},
	"attrs":     {"src/Csplat/Attrs.cs", [][2]int{{13, 13}, {21, 22}, {26, 26}}},
	"lineend":   {"src/Csplat/LineEnd.cs", [][2]int{{10, 10}, {19, 19}, {27, 27}}},
}

func maskFixture(t *testing.T, file string, regions [][2]int) lang.MaskOutput {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(fixture, file))
	if err != nil {
		t.Fatal(err)
	}
	in := lang.MaskInput{Path: file, Source: src}
	for _, r := range regions {
		in.Regions = append(in.Regions, schemas.VerifiedRegion{Region: schemas.Region{File: file, Start: r[0], End: r[1]},
			Verdict: schemas.Verdict{Label: schemas.LabelConditional}})
	}
	out, err := MaskRules{}.Mask(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMaskFixtures(t *testing.T) {
	for name, fm := range fixtureMasks {
		t.Run(name, func(t *testing.T) {
			out := maskFixture(t, fm.file, fm.regions)
			var b bytes.Buffer
			for _, a := range out.Actions {
				b.WriteString("// " + a.Kind + " " + a.Detail + "\n")
			}
			b.Write(out.Source)
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("mask of %s differs from %s:\n%s", fm.file, golden, b.String())
			}
			for _, a := range out.Actions {
				if a.Kind == lang.KindUnmasked {
					t.Errorf("region %d-%d unmasked: %s", a.Region.Start, a.Region.End, a.Detail)
				}
			}
		})
	}
}
