package lm

import (
	"fmt"
	"strconv"
)

// ConfigFromSettings reads a manifest's `lm = { ... }` settings (strings,
// keys as in the manifest language) into a validated Config.
func ConfigFromSettings(settings map[string]string) (Config, error) {
	cfg := Config{
		Provider: settings["provider"], Model: settings["model"], BaseURL: settings["base_url"],
		APIKeyEnv: settings["api_key_env"], AzureAPIVersion: settings["azure_api_version"],
	}
	if s := settings["temperature"]; s != "" {
		t, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return cfg, fmt.Errorf("lm temperature %q: not a number", s)
		}
		cfg.Temperature = t
	}
	if s := settings["max_tokens"]; s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return cfg, fmt.Errorf("lm max_tokens %q: not a whole number", s)
		}
		cfg.MaxTokens = n
	}
	return cfg, cfg.Validate()
}
