package schemas

// The six verification labels of DESIGN §2.3.
const (
	LabelConditional   = "platform-conditional"
	LabelAPI           = "platform-api"
	LabelPath          = "platform-path"
	LabelEncoding      = "platform-encoding"
	LabelOtherFeature  = "other-migration-feature"
	LabelFalsePositive = "false-positive"
)

// Labels lists the verification labels in a stable order.
var Labels = []string{LabelConditional, LabelAPI, LabelPath, LabelEncoding, LabelOtherFeature, LabelFalsePositive}

// LabelUnverified is the label of a region a language model gave no valid
// verdict on, even after being asked again. It is not one of Labels: it says
// the verifier could not decide, and such a region should go to the rules
// verifier or to a person, never be masked or dropped on the model's word.
const LabelUnverified = "unverified"

// The artifact files that step packages exchange, by result name: the
// diffcov step's DiffCoverage and the verify step's Verified.
const (
	DiffCoverageFile = "diffcov.json"
	RegionsFile      = "regions.json" // regions.schema.json
)

// Region is a candidate region of differential coverage: a run of lines of
// one file executed on the target platform and not on the source, merged
// across small gaps of blank and comment lines.
type Region struct {
	File  string `json:"file"`  // repo-relative, "/"-separated
	Start int    `json:"start"` // first line, 1-based
	End   int    `json:"end"`   // last line, inclusive
	// Lines are the differential lines inside [Start, End] (the gap lines
	// that merging bridged are not listed).
	Lines []int `json:"lines"`
	// SourceCompiled tells "compiled on the source, not executed there"
	// (true) from "not compiled on the source at all" (false: a file the
	// source platform's build never saw, e.g. a _windows.go file).
	SourceCompiled bool `json:"source_compiled"`
}

// Verdict is a verifier's judgement of one region.
type Verdict struct {
	Label          string  `json:"label"`           // one of Labels
	FunctionalArea string  `json:"functional_area"` // what the code does, in a few words
	FeatureGroup   string  `json:"feature_group"`   // snake_case
	Explanation    string  `json:"explanation"`
	Confidence     float64 `json:"confidence"` // 0..1
	Verifier       string  `json:"verifier"`   // "rules", or "lm:<provider>/<model>"
}

// VerifiedRegion is a region with its verdict.
type VerifiedRegion struct {
	Region
	Verdict
}

// Verified is the verify step's artifact (RegionsFile): every region with
// its verdict, and the count per label.
type Verified struct {
	Repository string           `json:"repository"`
	Source     string           `json:"source"`
	Target     string           `json:"target"`
	Verifier   string           `json:"verifier"`
	Regions    []VerifiedRegion `json:"regions"`
	ByLabel    map[string]int   `json:"by_label"`
}

// Kept returns the regions judged platform-specific: not false positives,
// and not left unverified by a model that never answered properly.
func (v *Verified) Kept() []VerifiedRegion {
	var out []VerifiedRegion
	for _, r := range v.Regions {
		if r.Label != LabelFalsePositive && r.Label != LabelUnverified {
			out = append(out, r)
		}
	}
	return out
}

// DiffCoverage is the artifact of the diffcov step for one direction.
type DiffCoverage struct {
	Repository string   `json:"repository"`
	Source     string   `json:"source"` // platform the code was written for
	Target     string   `json:"target"` // platform whose code is to be found
	Regions    []Region `json:"regions"`
}
