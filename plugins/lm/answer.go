package lm

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/osbench/osbench/schemas"
)

// answerSchemaJSON is the JSON Schema every answer must satisfy.
//
//go:embed answer.schema.json
var answerSchemaJSON []byte

// answerSchema is answerSchemaJSON compiled once.
var answerSchema = compileSchema("urn:osbench:lm-answer", answerSchemaJSON)

// compileSchema compiles an embedded JSON Schema. The schemas are part of
// the binary, so a failure to compile one is a programming error caught by
// the tests, not something bad input can cause.
func compileSchema(loc string, raw []byte) *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		panic("lm: " + loc + ": " + err.Error())
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(loc, doc); err != nil {
		panic("lm: " + loc + ": " + err.Error())
	}
	return c.MustCompile(loc)
}

// answer is a decoded, schema-valid answer.
type answer struct {
	Regions []answerRegion `json:"regions"`
}

// answerRegion is the model's verdict on the region [Start, End].
type answerRegion struct {
	Start          int     `json:"start"`
	End            int     `json:"end"`
	Label          string  `json:"label"`
	FunctionalArea string  `json:"functional_area"`
	FeatureGroup   string  `json:"feature_group"`
	Explanation    string  `json:"explanation"`
	Confidence     float64 `json:"confidence"`
}

// parseAnswer reads a model's text as an answer. It accepts the JSON object
// bare or wrapped in a Markdown code fence (models without a JSON mode
// often fence it), and checks it against the answer schema. Errors are
// worded for the model: they are sent back to it on a retry.
func parseAnswer(text string) (answer, error) {
	var a answer
	if err := decodeAnswer(text, answerSchema, &a); err != nil {
		return answer{}, err
	}
	for i, r := range a.Regions {
		if r.End < r.Start {
			return answer{}, fmt.Errorf("the answer does not match the required format:\n- at /regions/%d: end %d is before start %d", i, r.End, r.Start)
		}
	}
	return a, nil
}

// decodeAnswer unfences a model's text, checks it against schema and
// decodes it into out. Errors are worded for the model.
func decodeAnswer(text string, schema *jsonschema.Schema, out any) error {
	body := unfence(text)
	// Decoded with float64 numbers, not jsonschema.UnmarshalJSON's exact
	// ones: a number like 1e9999999 is then an error, not a big.Rat that
	// takes minutes to build.
	var doc any
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		return fmt.Errorf("the answer is not one JSON object: %v", err)
	}
	if err := schema.Validate(doc); err != nil {
		return fmt.Errorf("the answer does not match the required format:\n%s", describeInvalid(err))
	}
	if err := json.Unmarshal([]byte(body), out); err != nil {
		// The schema admits only what decodes (a line number beyond int
		// still passes it), so this is rare, but it is the model's error.
		return fmt.Errorf("the answer cannot be decoded: %v", err)
	}
	return nil
}

// unfence returns the JSON inside text: the text itself, the body of a
// ``` or ```json fence, or, failing those, the span from the first '{' to
// the last '}' (prose around an object).
func unfence(text string) string {
	s := strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(s, "```"); ok {
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[nl+1:] // drop the info string ("json")
		}
		if body, ok := strings.CutSuffix(strings.TrimSpace(rest), "```"); ok {
			return strings.TrimSpace(body)
		}
	}
	if strings.HasPrefix(s, "{") {
		return s
	}
	if i, j := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}'); i >= 0 && j > i {
		return s[i : j+1]
	}
	return s
}

// describeInvalid lists a schema validation error as "- at /path: message"
// lines, most specific first and without the schema's location, so the
// text is short, stable and useful to the model.
func describeInvalid(err error) string {
	verr, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return "- " + err.Error()
	}
	var lines []string
	for _, unit := range verr.BasicOutput().Errors {
		if unit.Error == nil {
			continue
		}
		msg := unit.Error.String()
		if strings.HasPrefix(msg, "validation failed") {
			continue // summary units that only point at their children
		}
		at := unit.InstanceLocation
		if at == "" {
			at = "/"
		}
		lines = append(lines, fmt.Sprintf("- at %s: %s", at, msg))
	}
	if len(lines) == 0 {
		return "- " + verr.Error()
	}
	sort.Strings(lines)
	lines = compact(lines)
	const maxLines = 20
	if len(lines) > maxLines {
		lines = append(lines[:maxLines], fmt.Sprintf("- (%d more problems)", len(lines)-maxLines))
	}
	return strings.Join(lines, "\n")
}

// compact drops adjacent duplicates of a sorted list.
func compact(lines []string) []string {
	out := lines[:0]
	for i, l := range lines {
		if i == 0 || l != lines[i-1] {
			out = append(out, l)
		}
	}
	return out
}

// span is a region's line range, the key by which answers are matched.
type span struct{ start, end int }

// matchAnswer pairs a's verdicts with regions by their exact line range.
// It returns the verdict found for each region index, and the problems of
// the answer (a region not answered, answered twice, or a range that is not
// a region), worded for the model.
func matchAnswer(regions []schemas.Region, a answer, verifier string) (map[int]schemas.Verdict, []string) {
	index := make(map[span]int, len(regions))
	for i, r := range regions {
		index[span{r.Start, r.End}] = i
	}
	got := map[int]schemas.Verdict{}
	twice := map[int]bool{}
	var problems []string
	for _, ar := range a.Regions {
		i, ok := index[span{ar.Start, ar.End}]
		if !ok {
			problems = append(problems, fmt.Sprintf("lines %d-%d are not one of the regions asked about; use the exact start and end given", ar.Start, ar.End))
			continue
		}
		if _, dup := got[i]; dup {
			twice[i] = true
			continue
		}
		got[i] = schemas.Verdict{
			Label:          ar.Label,
			FunctionalArea: ar.FunctionalArea,
			FeatureGroup:   ar.FeatureGroup,
			Explanation:    ar.Explanation,
			Confidence:     ar.Confidence,
			Verifier:       verifier,
		}
	}
	for i, r := range regions {
		switch {
		case twice[i]:
			// Two verdicts on one region: neither can be trusted over the other.
			delete(got, i)
			problems = append(problems, fmt.Sprintf("region %d-%d is answered more than once; answer it once", r.Start, r.End))
		case !hasKey(got, i):
			problems = append(problems, fmt.Sprintf("region %d-%d is not answered", r.Start, r.End))
		}
	}
	return got, problems
}

func hasKey(m map[int]schemas.Verdict, k int) bool {
	_, ok := m[k]
	return ok
}
