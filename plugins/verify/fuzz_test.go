package verify

import (
	"context"
	"testing"

	"github.com/osbench/osbench/schemas"
)

// FuzzRules feeds arbitrary files to every front end: no panic, and either
// an error or one valid verdict per region.
func FuzzRules(f *testing.F) {
	for _, c := range snippetCases {
		f.Add(c.path, c.src, 1, 3)
	}
	f.Add("a.rs", "r#\"unterminated", 1, 1)
	f.Add("a.c", "#else\n#endif\n}}}{", 1, 2)
	f.Add("A.cs", "@\"\n\"\"\n$\"{", 1, 3)
	f.Fuzz(func(t *testing.T, path, src string, start, end int) {
		regions := []schemas.Region{{Start: start, End: end}, {Start: 1, End: 1, Lines: []int{1, 5}}}
		vs, err := Rules{}.Verify(context.Background(), Input{Path: path, Source: []byte(src), Regions: regions})
		if err != nil {
			return
		}
		if len(vs) != len(regions) {
			t.Fatalf("%d verdicts for %d regions", len(vs), len(regions))
		}
		for _, v := range vs {
			checkVerdictShape(t, v)
		}
	})
}
