package schemas

// MaskRecord is the mask step's mask.json result (and the mask-retry
// step's): how the complete repository was masked into R−. The task step
// reads it from its input, so its shape lives here rather than in the mask
// step's package.
type MaskRecord struct {
	Masker string `json:"masker"`
	// Coarse is true when the fine-grained mask broke the target build and
	// whole function bodies were masked instead.
	Coarse bool  `json:"coarse"`
	Builds *bool `json:"builds,omitempty"` // nil: the step has no build check
	// Log is the end of the build check's output, and FineLog that of the
	// failed check of the fine-grained mask when the coarse retry ran (why
	// the retry was needed). Both are side artifacts, never part of
	// mask.json: a parallel build's lines come in a different order each
	// time, and a result must not.
	Log     string       `json:"-"`
	FineLog string       `json:"-"`
	Files   []string     `json:"files"`
	Actions []MaskAction `json:"actions"`
	// Regions are the verified regions that were masked.
	Regions []VerifiedRegion `json:"regions"`
	// Rejected are verified regions left unmasked because their
	// placeholder would change a line the source platform executed, or
	// would change nothing.
	Rejected []MaskRejected `json:"rejected,omitempty"`
	// Retry is set by the mask-retry step: how the target's run on the
	// first mask went, and whether the retry masked anew.
	Retry *MaskRetry `json:"retry,omitempty"`
}

// MaskAction is one edit a masker made. Its fields have no json tags: the
// names are the record's keys as they always were.
type MaskAction struct {
	Region Region
	Kind   string // one of the mask kinds (plugins/lang: KindStatements …)
	Detail string // for people: which function, what replaced what
}

// MaskRejected is a verified region the mask step did not mask, and why.
type MaskRejected struct {
	Region VerifiedRegion `json:"region"`
	Reason string         `json:"reason"`
}

// MaskRetry is what the mask-retry step did.
type MaskRetry struct {
	// First is the class of the target's run on the first mask, for its
	// FAIL_TO_PASS tests.
	First MaskedRun `json:"first"`
	// Remasked: the first run crashed or hung and the retry masked whole
	// function bodies; false means the first mask was kept as it was.
	Remasked bool `json:"remasked"`
}
