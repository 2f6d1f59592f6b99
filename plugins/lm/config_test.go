package lm

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

func TestConfigValidate(t *testing.T) {
	ok := Config{Provider: OpenAIName, Model: "gpt-4o"}
	for _, tc := range []struct {
		name    string
		edit    func(*Config)
		wantErr string // "" for valid
	}{
		{"minimal", func(*Config) {}, ""},
		{"local server", func(c *Config) { c.BaseURL = "http://localhost:11434/v1" }, ""},
		{"provider", func(c *Config) { c.Provider = "gemini" }, `provider "gemini" is not one of [anthropic openai]`},
		{"model", func(c *Config) { c.Model = "" }, "model is empty"},
		{"temperature", func(c *Config) { c.Temperature = 3 }, "temperature 3"},
		{"NaN temperature", func(c *Config) { c.Temperature = math.NaN() }, "temperature NaN"},
		{"max tokens", func(c *Config) { c.MaxTokens = -1 }, "max_tokens -1"},
		{"timeout", func(c *Config) { c.Timeout = -time.Second }, "timeout -1s"},
		{"scheme", func(c *Config) { c.BaseURL = "ftp://x" }, "not an http(s) URL"},
		{"credentials in URL", func(c *Config) { c.BaseURL = "https://user:pw@x/v1" }, "must not hold credentials"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			err := c.Validate()
			if (tc.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("Validate() = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

func TestConfigKey(t *testing.T) {
	base := Config{Provider: AnthropicName, Model: "claude-sonnet-4-5", APIKeyEnv: "ANTHROPIC_API_KEY"}
	t.Setenv("ANTHROPIC_API_KEY", testKey)

	var fields map[string]any
	if err := json.Unmarshal([]byte(base.Key()), &fields); err != nil {
		t.Fatalf("Key is not JSON: %v", err)
	}
	want := map[string]any{"provider": "anthropic", "model": "claude-sonnet-4-5", "base_url": AnthropicBaseURL,
		"max_tokens": float64(DefaultMaxTokens), "temperature": "0", "prompt": PromptVersion}
	if !jsonEqual(fields, want) {
		t.Errorf("Key fields %v, want %v", fields, want)
	}
	if strings.Contains(base.Key(), testKey) || strings.Contains(base.Key(), "ANTHROPIC_API_KEY") {
		t.Errorf("Key holds the API key or its variable: %s", base.Key())
	}

	same := map[string]func(*Config){
		"defaults spelled out": func(c *Config) { c.BaseURL = AnthropicBaseURL; c.MaxTokens = DefaultMaxTokens },
		"other key variable":   func(c *Config) { c.APIKeyEnv = "OTHER" },
		"timeout and retries":  func(c *Config) { c.Timeout = time.Second; c.MaxRetries = 9 },
	}
	different := map[string]func(*Config){
		"model":       func(c *Config) { c.Model = "claude-opus-4" },
		"provider":    func(c *Config) { c.Provider = OpenAIName },
		"endpoint":    func(c *Config) { c.BaseURL = "http://localhost:8000" },
		"azure":       func(c *Config) { c.AzureAPIVersion = "2024-10-21" },
		"temperature": func(c *Config) { c.Temperature = 0.5 },
		"max tokens":  func(c *Config) { c.MaxTokens = 100 },
	}
	for name, edit := range same {
		c := base
		edit(&c)
		if c.Key() != base.Key() {
			t.Errorf("%s changes the key:\n%s\n%s", name, c.Key(), base.Key())
		}
	}
	for name, edit := range different {
		c := base
		edit(&c)
		if c.Key() == base.Key() {
			t.Errorf("%s does not change the key", name)
		}
	}
}
