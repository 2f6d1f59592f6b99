package verifyregions

import (
	"github.com/osbench/osbench/plugins/lm"
	"github.com/osbench/osbench/plugins/verify"
)

// LMVerifier is the verifier name that asks a language model (plugins/lm);
// unlike the registered verifiers it needs settings, so this step builds it.
const LMVerifier = "lm"

// VerifierNames lists every name a manifest's `verifier` may use.
func VerifierNames() []string {
	return append(verify.Names(), LMVerifier)
}

// newLMVerifier builds the LM verifier from a manifest's lm settings.
func newLMVerifier(settings map[string]string) (verify.Verifier, error) {
	cfg, err := lm.ConfigFromSettings(settings)
	if err != nil {
		return nil, err
	}
	p, err := lm.NewProvider(cfg)
	if err != nil {
		return nil, err
	}
	return lm.NewVerifier(cfg, p)
}
