package diffcov

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/osbench/osbench/schemas"
)

func TestZZSanity(t *testing.T) {
	for _, r := range []string{"fsapi", "pathsep"} {
		load := func(p string) schemas.Coverage {
			var c schemas.Coverage
			b, _ := os.ReadFile("testdata/coverage/" + r + "-" + p + ".json")
			json.Unmarshal(b, &c)
			return c
		}
		for _, d := range [][2]string{{"linux", "windows"}, {"windows", "linux"}} {
			regs, err := Compute(os.DirFS("../../testdata/repos/"+r), load(d[0]), load(d[1]), Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range regs {
				t.Logf("%s %s->%s %s:%d-%d %v %v", r, d[0], d[1], g.File, g.Start, g.End, g.Lines, g.SourceCompiled)
			}
		}
	}
}
