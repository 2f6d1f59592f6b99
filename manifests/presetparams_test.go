package manifests

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestPresetParams(t *testing.T) {
	for _, c := range []struct {
		preset string
		want   map[string]string // name → kind; nil: only the count below
		count  int
		err    string
	}{
		{preset: "c-cmake", want: map[string]string{"runner": "a string", "cmake_options": "a list of strings", "skip_exit_code": "a number", "targets": "a list of strings"}, count: 10},
		{preset: "go", count: 0},
		{preset: "cobol", err: `no bundled preset "cobol"`},
	} {
		t.Run(c.preset, func(t *testing.T) {
			got, err := PresetParams(c.preset)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != c.count {
				t.Errorf("%d parameters, want %d: %v", len(got), c.count, got)
			}
			for name, kind := range c.want {
				if v, ok := got[name]; !ok || ParamKind(v) != kind {
					t.Errorf("%s: %v, want %s", name, v, kind)
				}
			}
			if c.preset == "c-cmake" && !got["runner"].RawEquals(cty.StringVal("ctest")) {
				t.Errorf("runner default %#v, want ctest", got["runner"])
			}
		})
	}
}
