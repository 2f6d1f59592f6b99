package lm

import "testing"

func TestConfigFromSettings(t *testing.T) {
	cfg, err := ConfigFromSettings(map[string]string{"provider": "openai", "model": "m", "temperature": "0.5", "max_tokens": "100", "api_key_env": "K"})
	if err != nil || cfg.Temperature != 0.5 || cfg.MaxTokens != 100 || cfg.APIKeyEnv != "K" || cfg.Model != "m" {
		t.Fatalf("ConfigFromSettings = %+v, %v", cfg, err)
	}
	for name, bad := range map[string]map[string]string{
		"temperature": {"provider": "openai", "model": "m", "temperature": "warm"},
		"max_tokens":  {"provider": "openai", "model": "m", "max_tokens": "many"},
		"no provider": {"model": "m"},
	} {
		if _, err := ConfigFromSettings(bad); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
