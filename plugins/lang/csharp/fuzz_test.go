package csharp

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/schemas"
)

// FuzzMask: any text and any region in it masks without a panic, and a
// region the rules leave alone leaves its bytes alone.
func FuzzMask(f *testing.F) {
	for _, fm := range fixtureMasks {
		src, err := os.ReadFile(filepath.Join(fixture, fm.file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, uint8(fm.regions[0][0]), uint8(fm.regions[0][1]-fm.regions[0][0]))
	}
	f.Add([]byte("class A { int F() { if (OperatingSystem.IsWindows()) return 1; return 0 } }"), uint8(1), uint8(0))
	f.Add([]byte("#if WINDOWS\n#else\n{ [SupportedOSPlatform(\"windows\")] ( => ;"), uint8(2), uint8(1))
	f.Fuzz(func(t *testing.T, src []byte, start, span uint8) {
		lines := bytes.Count(src, []byte("\n")) + 1
		s := int(start)%lines + 1
		e := min(s+int(span)%4, lines)
		out, err := MaskRules{}.Mask(context.Background(), lang.MaskInput{Path: "F.cs", Source: src,
			Regions: []schemas.VerifiedRegion{{Region: schemas.Region{Start: s, End: e}, Verdict: schemas.Verdict{Label: schemas.LabelConditional}}}})
		if err != nil {
			return
		}
		if len(out.Actions) == 1 && out.Actions[0].Kind == lang.KindUnmasked && !bytes.Equal(out.Source, src) {
			t.Errorf("an unmasked region changed the file")
		}
	})
}
