package lm

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

// pathsepRegions are the Windows-only regions of the pathsep fixture's
// pathsep.go that the answers under testdata/answers refer to.
var pathsepRegions = []schemas.Region{
	{File: "pathsep.go", Start: 20, End: 20, Lines: []int{20}, SourceCompiled: true},
	{File: "pathsep.go", Start: 30, End: 39, Lines: []int{30, 31, 32, 33, 36, 37, 39}, SourceCompiled: true},
	{File: "pathsep.go", Start: 76, End: 95, Lines: []int{76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 89, 92, 93, 95}, SourceCompiled: true},
}

func TestAnswerSchemaLabelsMatchSchemas(t *testing.T) {
	var doc struct {
		Properties struct {
			Regions struct {
				Items struct {
					Properties struct {
						Label struct {
							Enum []string `json:"enum"`
						} `json:"label"`
					} `json:"properties"`
				} `json:"items"`
			} `json:"regions"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(answerSchemaJSON, &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Properties.Regions.Items.Properties.Label.Enum; !slices.Equal(got, schemas.Labels) {
		t.Errorf("answer schema labels %v, schemas.Labels %v", got, schemas.Labels)
	}
}

func TestParseAnswer(t *testing.T) {
	for _, tc := range []struct {
		name    string
		text    string
		regions int      // when valid
		wantErr []string // substrings of the error; nil when valid
	}{
		{name: "fixture good", text: readTestdata(t, "answers/pathsep_good.json"), regions: 3},
		{name: "fixture fenced with prose", text: readTestdata(t, "answers/pathsep_fenced.md"), regions: 3},
		{name: "empty list", text: `{"regions":[]}`, regions: 0},
		{name: "fixture bad label", text: readTestdata(t, "answers/pathsep_bad_label.json"),
			wantErr: []string{"at /regions/0/label", "at /regions/0/feature_group", "at /regions/1/confidence"}},
		{name: "prose", text: readTestdata(t, "answers/prose.txt"), wantErr: []string{"not one JSON object"}},
		{name: "empty", text: "", wantErr: []string{"not one JSON object"}},
		{name: "array", text: `[]`, wantErr: []string{"at /:"}},
		{name: "two objects", text: `{"regions":[]} {"regions":[]}`, wantErr: []string{"not one JSON object"}},
		{name: "missing field", text: `{"regions":[{"start":1,"end":1,"label":"platform-api"}]}`, wantErr: []string{"at /regions/0: missing properties"}},
		{name: "extra field", text: `{"regions":[],"note":"x"}`, wantErr: []string{"additional properties"}},
		{name: "fractional line", text: strings.Replace(readTestdata(t, "answers/pathsep_good.json"), `"start": 20`, `"start": 20.5`, 1),
			wantErr: []string{"at /regions/0/start"}},
		{name: "end before start", text: strings.Replace(readTestdata(t, "answers/pathsep_good.json"), `"start": 30`, `"start": 40`, 1),
			wantErr: []string{"at /regions/1: end 39 is before start 40"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := parseAnswer(tc.text)
			if tc.wantErr == nil {
				if err != nil {
					t.Fatalf("error: %v", err)
				}
				if len(a.Regions) != tc.regions {
					t.Errorf("%d regions, want %d", len(a.Regions), tc.regions)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.wantErr)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "urn:") || strings.Contains(err.Error(), "file://") {
				t.Errorf("error names the schema's location: %q", err)
			}
		})
	}
}

func TestMatchAnswer(t *testing.T) {
	good, err := parseAnswer(readTestdata(t, "answers/pathsep_good.json"))
	if err != nil {
		t.Fatal(err)
	}
	partial, err := parseAnswer(readTestdata(t, "answers/pathsep_partial.json"))
	if err != nil {
		t.Fatal(err)
	}
	twice := answer{Regions: append(slices.Clone(good.Regions), good.Regions[0])}
	for _, tc := range []struct {
		name     string
		a        answer
		matched  []int
		problems []string
	}{
		{name: "all", a: good, matched: []int{0, 1, 2}},
		{name: "partial", a: partial, matched: []int{0},
			problems: []string{"lines 30-40 are not one of the regions", "region 30-39 is not answered", "region 76-95 is not answered"}},
		{name: "twice", a: twice, matched: []int{1, 2}, problems: []string{"region 20-20 is answered more than once"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, problems := matchAnswer(pathsepRegions, tc.a, "lm:x/y")
			var matched []int
			for i, v := range got {
				matched = append(matched, i)
				if v.Verifier != "lm:x/y" || v.Label == "" {
					t.Errorf("verdict %d = %+v", i, v)
				}
			}
			slices.Sort(matched)
			if !slices.Equal(matched, tc.matched) {
				t.Errorf("matched %v, want %v", matched, tc.matched)
			}
			if len(problems) != len(tc.problems) {
				t.Fatalf("problems %q, want %q", problems, tc.problems)
			}
			for i, p := range problems {
				if !strings.Contains(p, tc.problems[i]) {
					t.Errorf("problem %q does not contain %q", p, tc.problems[i])
				}
			}
		})
	}
}

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// FuzzParseAnswer: no input makes parseAnswer panic, and every answer it
// accepts keeps the promises the verifier relies on.
func FuzzParseAnswer(f *testing.F) {
	for _, name := range []string{"pathsep_good.json", "pathsep_bad_label.json", "pathsep_partial.json", "pathsep_fenced.md", "prose.txt"} {
		f.Add(readTestdata(f, "answers/"+name))
	}
	f.Add("```\n{}\n```")
	f.Add(`{"regions":[{"start":1e400,"end":1,"label":"platform-api","functional_area":"a","feature_group":"a","explanation":"a","confidence":0}]}`)
	f.Add(`{"regions":[{"start":1,"start":2,"end":2,"label":"platform-api","functional_area":"a","feature_group":"a","explanation":"a","confidence":1}]}`)
	f.Fuzz(func(t *testing.T, text string) {
		a, err := parseAnswer(text)
		if err != nil {
			return
		}
		for i, r := range a.Regions {
			if r.Start < 1 || r.End < r.Start {
				t.Errorf("region %d has lines %d-%d", i, r.Start, r.End)
			}
			if !slices.Contains(schemas.Labels, r.Label) {
				t.Errorf("region %d has label %q", i, r.Label)
			}
			if !snakeCase.MatchString(r.FeatureGroup) {
				t.Errorf("region %d has feature group %q", i, r.FeatureGroup)
			}
			if !(r.Confidence >= 0 && r.Confidence <= 1) {
				t.Errorf("region %d has confidence %v", i, r.Confidence)
			}
		}
		matchAnswer(pathsepRegions, a, "lm:fuzz/model")
	})
}
