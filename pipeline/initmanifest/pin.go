package initmanifest

import (
	"fmt"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/checkout"
)

// pin writes the bytes the checkout fetched into the source: a go
// module's h1: sum, the sha256 of a crate, a .dsc or an archive, a git
// commit in full. A local directory has no upstream pin (its tree digest
// keys the checkout). A pin given on the command line was already
// checked by the checkout, which refuses bytes that do not match.
func pin(s *Source, co *engine.Artifacts) error {
	if !co.Has(checkout.ResultProvenance) {
		return nil
	}
	var p schemas.Provenance
	if err := co.DecodeJSON(checkout.ResultProvenance, &p); err != nil {
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
