package verifyregions

import (
	"fmt"
	"strconv"

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
	cfg := lm.Config{
		Provider: settings["provider"], Model: settings["model"], BaseURL: settings["base_url"],
		APIKeyEnv: settings["api_key_env"], AzureAPIVersion: settings["azure_api_version"],
	}
	if s := settings["temperature"]; s != "" {
		t, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("lm temperature %q: not a number", s)
		}
		cfg.Temperature = t
	}
	if s := settings["max_tokens"]; s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("lm max_tokens %q: not a whole number", s)
		}
		cfg.MaxTokens = n
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p, err := lm.NewProvider(cfg)
	if err != nil {
		return nil, err
	}
	return lm.NewVerifier(cfg, p)
}
