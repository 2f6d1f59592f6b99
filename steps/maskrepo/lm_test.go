package maskrepo

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

type failingMasker struct{}

func (failingMasker) Mask(context.Context, mask.Input) (mask.Output, error) {
	return mask.Output{}, errors.New("model answered badly twice")
}

func TestLMFallsBackToRules(t *testing.T) {
	rules, _ := mask.Lookup("rules")
	m := withFallback{model: failingMasker{}, rules: rules, name: "lm:test/model"}
	src := "package p\n\nimport \"runtime\"\n\nfunc Sep() string {\n\tif runtime.GOOS == \"windows\" {\n\t\treturn \"\\\\\"\n\t}\n\treturn \"/\"\n}\n"
	region := schemas.VerifiedRegion{
		Region:  schemas.Region{File: "p.go", Start: 7, End: 7, Lines: []int{7}, SourceCompiled: true},
		Verdict: schemas.Verdict{Label: schemas.LabelPath, FeatureGroup: "separators", Confidence: 0.9, Verifier: "rules"},
	}
	out, err := m.Mask(context.Background(), mask.Input{Path: "p.go", Source: []byte(src), Regions: []schemas.VerifiedRegion{region}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out.Source), `"\\"`) {
		t.Errorf("region not masked:\n%s", out.Source)
	}
	last := out.Actions[len(out.Actions)-1]
	if last.Kind != "fallback" || !strings.Contains(last.Detail, "model answered badly twice") {
		t.Errorf("fallback not recorded: %+v", out.Actions)
	}
	if _, err := newMasker(Config{Masker: "nope"}); err == nil || !strings.Contains(err.Error(), `unknown masker "nope"`) {
		t.Errorf("unknown masker: %v", err)
	}
	if names := strings.Join(MaskerNames(), ","); !strings.Contains(names, "rules") || !strings.Contains(names, "lm") {
		t.Errorf("MaskerNames = %s", names)
	}
}
