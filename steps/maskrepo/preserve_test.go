package maskrepo

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// pairwiseMasker is the rules masker, except that it refuses, as the C
// rules once did on a header ("edit 1293-1522 overlaps the previous one"),
// any two regions that share a line.
type pairwiseMasker struct{}

func (pairwiseMasker) Mask(ctx context.Context, in mask.Input) (mask.Output, error) {
	for i, a := range in.Regions {
		for _, b := range in.Regions[i+1:] {
			if a.Start <= b.End && b.Start <= a.End {
				return mask.Output{}, fmt.Errorf("mask %s: edit %d-%d overlaps the previous one or leaves the file", in.Path, b.Start, b.End)
			}
		}
	}
	return mask.Rules{}.Mask(ctx, in)
}

// TestOverlapCostsARegion: regions that mask alone but not together keep
// the first of them masked and reject the other with the masker's reason;
// the file's third region is masked as well.
func TestOverlapCostsARegion(t *testing.T) {
	src := []byte("package p\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 2\n}\n")
	r := func(start, end int) schemas.VerifiedRegion {
		return schemas.VerifiedRegion{Region: schemas.Region{File: "p.go", Start: start, End: end}, Verdict: schemas.Verdict{Label: schemas.LabelAPI}}
	}
	out, _, kept, rejected, err := maskPreserving(context.Background(), pairwiseMasker{}, "p.go", src, []schemas.VerifiedRegion{r(4, 4), r(3, 4), r(8, 8)}, false, true, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 2 || kept[0].Start != 4 || kept[1].Start != 8 {
		t.Errorf("kept = %+v, want 4-4 and 8-8", kept)
	}
	if len(rejected) != 1 || rejected[0].Region.Start != 3 || !strings.Contains(rejected[0].Reason, "cannot be masked together with the file's other regions: edit 3-4 overlaps") {
		t.Errorf("rejected = %+v", rejected)
	}
	if strings.Contains(string(out), "return 1") || strings.Contains(string(out), "return 2") {
		t.Errorf("masked:\n%s", out)
	}
}
