package initmanifest

import (
	"fmt"

	"github.com/osbench/osbench/engine"
)

// provenanceResult is the checkout's result naming the upstream pin.
const provenanceResult = "provenance"

// provenance is the checkout's record of what it fetched.
type provenance struct {
	Kind    string `json:"kind"`
	Repo    string `json:"repo"`
	Version string `json:"version"`
	Sum     string `json:"sum"`
	SHA256  string `json:"sha256"`
	Commit  string `json:"commit"`
}

// pin writes the bytes the checkout fetched into the source: a go
// module's h1: sum, the sha256 of a crate, a .dsc or an archive, a git
// commit in full. A local directory has no upstream pin (its tree digest
// keys the checkout). A pin given on the command line was already
// checked by the checkout, which refuses bytes that do not match.
func pin(s *Source, co *engine.Artifacts) error {
	if !co.Has(provenanceResult) {
		return nil
	}
	var p provenance
	if err := co.DecodeJSON(provenanceResult, &p); err != nil {
		return fmt.Errorf("reading the checkout's provenance: %v", err)
	}
	switch s.Kind {
	case KindGoModule:
		s.Sum = p.Sum
	case KindCrate, KindDebian, KindArchive:
		s.SHA256 = p.SHA256
	case KindGit:
		if p.Commit != "" {
			s.Commit = p.Commit
		}
	}
	return nil
}
