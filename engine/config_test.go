package engine

import (
	"reflect"
	"testing"
)

type sampleCommand struct {
	Argv []string `json:"argv"`
}

type sampleConfig struct {
	Repository string            `json:"repository"`
	Env        map[string]string `json:"env"`
	Skip       []string          `json:"skip"`
	Build      *sampleCommand    `json:"build,omitempty"`
	Run        int               `json:"run,omitempty"`
	Untagged   string
	Hidden     string `json:"-"`
	internal   string // unexported: ignored
}

// internal is set so the field is used; Fields must still leave it out.
var _ = sampleConfig{internal: "never a field"}

func TestFields(t *testing.T) {
	src := func(name string) string { return "m.hcl:" + name }
	tests := []struct {
		name string
		cfg  any
		want []Field
	}{
		{
			name: "zero omitempty fields are left out, nil collections are empty",
			cfg:  sampleConfig{Repository: "r"},
			want: []Field{
				{Name: "repository", Value: "r", Source: "m.hcl:repository"},
				{Name: "env", Value: map[string]string{}, Source: "m.hcl:env"},
				{Name: "skip", Value: []string{}, Source: "m.hcl:skip"},
			},
		},
		{
			name: "set fields in declaration order, through a pointer",
			cfg:  &sampleConfig{Repository: "r", Env: map[string]string{"A": "1"}, Skip: []string{"T"}, Build: &sampleCommand{Argv: []string{"make"}}, Run: 2},
			want: []Field{
				{Name: "repository", Value: "r", Source: "m.hcl:repository"},
				{Name: "env", Value: map[string]string{"A": "1"}, Source: "m.hcl:env"},
				{Name: "skip", Value: []string{"T"}, Source: "m.hcl:skip"},
				{Name: "build", Value: &sampleCommand{Argv: []string{"make"}}, Source: "m.hcl:build"},
				{Name: "run", Value: 2, Source: "m.hcl:run"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Fields(tt.cfg, src)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Fields:\n got %#v\nwant %#v", got, tt.want)
			}
		})
	}
	if f := Fields(sampleConfig{}, nil); f[0].Source != "" {
		t.Errorf("no source func: source %q", f[0].Source)
	}
}

// TestFieldsDecodeBack: what Fields gives, DecodeConfig reads into the same
// struct (the step's side of the contract).
func TestFieldsDecodeBack(t *testing.T) {
	in := sampleConfig{Repository: "r", Skip: []string{"A"}, Run: 3}
	rc := &RunContext{Step: &Step{ID: "x", Config: Fields(in, nil)}}
	var out sampleConfig
	if err := rc.DecodeConfig(&out); err != nil {
		t.Fatal(err)
	}
	in.Env = map[string]string{}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("decoded %+v, want %+v", out, in)
	}
}

func TestFieldsFlattensEmbeddedStructs(t *testing.T) {
	type retry struct {
		sampleConfig
		Runs int `json:"runs"`
	}
	got := Fields(retry{sampleConfig: sampleConfig{Repository: "r"}, Runs: 2}, nil)
	var names []string
	for _, f := range got {
		names = append(names, f.Name)
	}
	if want := []string{"repository", "env", "skip", "runs"}; !reflect.DeepEqual(names, want) {
		t.Errorf("fields %v, want %v", names, want)
	}
}

func TestFieldsPanicsOnNonStruct(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for a map config")
		}
	}()
	Fields(map[string]string{}, nil)
}
