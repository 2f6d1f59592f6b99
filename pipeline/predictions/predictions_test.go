package predictions

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func write(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// summary is what a test compares: "model/instance@line" per prediction and
// "line: message fragment" per problem.
func summary(preds []Prediction, problems []Problem) (got, bad []string) {
	for _, p := range preds {
		got = append(got, p.Model+"/"+p.InstanceID+"@"+p.Where[strings.LastIndex(p.Where, ":")+1:]+"="+p.Patch)
	}
	for _, p := range problems {
		bad = append(bad, p.Where[strings.LastIndex(p.Where, ":")+1:]+": "+p.Msg)
	}
	return got, bad
}

func TestRead(t *testing.T) {
	tests := []struct {
		name, file, content, model string
		want                       []string
		wantBad                    []string // line: message prefix
	}{
		{
			name: "jsonl", file: "p.jsonl",
			content: `{"instance_id":"a__linux-to-windows","model_name_or_path":"m1","model_patch":"diff"}` + "\n\n" +
				`{"instance_id":"b__linux-to-windows","model_name_or_path":"m1","model_patch":"","full_output":"x"}` + "\n",
			want: []string{"m1/a__linux-to-windows@1=diff", "m1/b__linux-to-windows@3="},
		},
		{
			name: "jsonl with bad lines", file: "p.jsonl",
			content: `{"instance_id":"a","model_name_or_path":"m","model_patch":"x"}` + "\n" +
				`{"instance_id":"b",` + "\n" +
				`{"model_name_or_path":"m","model_patch":"x"}` + "\n" +
				`{"instance_id":"c","model_patch":"x"}` + "\n" +
				`{"instance_id":"d","model_name_or_path":"m"}` + "\n" +
				`{"instance_id":5,"model_name_or_path":"m","model_patch":"x"}` + "\n" +
				`{"instance_id":"e","model_name_or_path":"m","model_patch":"y"}` + "\n",
			want: []string{"m/a@1=x", "m/e@7=y"},
			wantBad: []string{
				"2: malformed JSON", "3: no \"instance_id\"", "4: no \"model_name_or_path\"",
				"5: no \"model_patch\"", "6: not a prediction",
			},
		},
		{
			name: "model from the flag", file: "p.jsonl", model: "flagged",
			content: `{"instance_id":"a","model_patch":"x"}` + "\n" + `{"instance_id":"b","model_name_or_path":"own","model_patch":"x"}`,
			want:    []string{"flagged/a@1=x", "own/b@2=x"},
		},
		{
			name: "json list", file: "p.json",
			content: "[\n  {\"instance_id\":\"a\",\"model_name_or_path\":\"m\",\"model_patch\":\"x\"},\n" +
				"  {\"instance_id\":\"b\",\"model_name_or_path\":\"m\"},\n" +
				"  {\"instance_id\":\"c\",\"model_name_or_path\":\"m\",\"model_patch\":\"z\"}\n]\n",
			want:    []string{"m/a@2=x", "m/c@4=z"},
			wantBad: []string{"3: no \"model_patch\""},
		},
		{
			name: "broken json list keeps what came before", file: "p.json",
			content: "[{\"instance_id\":\"a\",\"model_name_or_path\":\"m\",\"model_patch\":\"x\"},\n {\"instance_id\": }]",
			want:    []string{"m/a@1=x"},
			wantBad: []string{"2: malformed JSON"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			preds, problems, err := Read(write(t, tt.file, tt.content), tt.model)
			if err != nil {
				t.Fatal(err)
			}
			got, bad := summary(preds, problems)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("predictions = %q, want %q", got, tt.want)
			}
			if len(bad) != len(tt.wantBad) {
				t.Fatalf("problems = %q, want %q", bad, tt.wantBad)
			}
			for i := range bad {
				if !strings.HasPrefix(bad[i], tt.wantBad[i]) {
					t.Errorf("problem %d = %q, want prefix %q", i, bad[i], tt.wantBad[i])
				}
			}
		})
	}
}

func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"b__linux-to-windows.diff": "B", "a__windows-to-linux.patch": "A", "notes.txt": "ignored"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := Read(dir, ""); err == nil || !strings.Contains(err.Error(), "--model") {
		t.Fatalf("a directory without a model: err = %v, want one naming --model", err)
	}
	preds, problems, err := Read(dir, "agent")
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	want := []Prediction{
		{InstanceID: "a__windows-to-linux", Model: "agent", Patch: "A", Where: filepath.Join(dir, "a__windows-to-linux.patch")},
		{InstanceID: "b__linux-to-windows", Model: "agent", Patch: "B", Where: filepath.Join(dir, "b__linux-to-windows.diff")},
	}
	if !reflect.DeepEqual(preds, want) {
		t.Errorf("got %+v, want %+v", preds, want)
	}
}

func TestCheck(t *testing.T) {
	preds := []Prediction{
		{InstanceID: "a", Model: "m", Where: "p:1"},
		{InstanceID: "zzz", Model: "m", Where: "p:2"},
		{InstanceID: "a", Model: "m", Where: "p:3"},
		{InstanceID: "a", Model: "other", Where: "p:4"},
	}
	kept, problems := Check(preds, func(id string) bool { return id == "a" })
	if len(kept) != 2 || kept[0].Where != "p:1" || kept[1].Where != "p:4" {
		t.Errorf("kept %+v, want the first of model m and the one of model other", kept)
	}
	if len(problems) != 2 || !strings.Contains(problems[0].Msg, `unknown instance_id "zzz"`) ||
		problems[1].Where != "p:3" || !strings.Contains(problems[1].Msg, "first at p:1") {
		t.Errorf("problems = %+v", problems)
	}
}
