// Package lm asks a language model to verify candidate regions of
// differential coverage (DESIGN §2.3) and to mask verified ones (§2.4), as
// plugins next to the deterministic rules of packages verify and mask.
//
// It has two layers:
//
//   - Provider: one chat completion over HTTP. The built-in providers are
//     "openai" (the OpenAI chat-completions API, which Azure OpenAI, vLLM and
//     Ollama also speak) and "anthropic" (the Messages API). NewProvider
//     builds one from a Config. Requests time out, responses are read up to a
//     bound, 429 and 5xx answers are retried with capped backoff, and failures
//     come back as errors that carry the HTTP status and the start of the body.
//   - LMVerifier: a verify.Verifier. For each file it writes a prompt (the
//     whole file with line numbers, the target-only lines marked [W] or [L],
//     the six labels explained for the file's language), asks the provider,
//     and checks the answer against an embedded JSON Schema. A bad answer is
//     asked again once, with the validation error; a region still without a
//     valid answer gets the verdict label Unverified.
//   - LMMasker: a mask.Masker (DESIGN §2.4). For each file it asks for one
//     placeholder edit per verified region, checks the answer against its
//     own schema, keeps every edit inside its region and, for Go, checks
//     that the result parses; a bad answer is asked again once, a second
//     one is a *MaskError naming the regions, and the caller falls back to
//     the rules masker.
//
// API keys are read from the environment variable Config.APIKeyEnv names, at
// each request. They are never kept in a struct, written to a log, or put in
// an error (an echo of the key in a server's answer is redacted). Config.Key
// lists what decides an answer (provider, model, endpoint, sampling
// parameters and PromptVersion) for the cache key of the step that runs the
// verifier; it never holds the key.
//
// Usage:
//
//	cfg := lm.Config{Provider: "anthropic", Model: "claude-sonnet-4-5", APIKeyEnv: "ANTHROPIC_API_KEY"}
//	p, err := lm.NewProvider(cfg)
//	...
//	v, err := lm.NewVerifier(cfg, p)
//	...
//	verdicts, err := v.Verify(ctx, verify.Input{Path: "pathsep.go", Source: src,
//		Regions: regions, SourceOS: "linux", TargetOS: "windows"})
package lm

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/osbench/osbench/plugins/registry"
)

// Provider is one language-model API.
type Provider interface {
	// Complete sends one system+user exchange and returns the model's text.
	Complete(ctx context.Context, req Request) (Response, error)
}

// Request is one completion request.
type Request struct {
	Model       string
	System      string // instructions: who the model is, what to answer
	Prompt      string // the user turn
	Temperature float64
	MaxTokens   int
}

// Response is the model's answer.
type Response struct {
	Text string
}

// Config selects and parameterises a provider. It is what a manifest's LM
// settings decode to.
type Config struct {
	Provider string // registry name: "openai" or "anthropic"
	Model    string // e.g. "gpt-4o", "claude-sonnet-4-5"; an Azure deployment's model name
	// BaseURL is the API root; empty means the provider's public endpoint.
	// For OpenAI-compatible servers it ends before /chat/completions
	// ("http://localhost:11434/v1" for Ollama, an Azure deployment URL
	// "https://R.openai.azure.com/openai/deployments/D").
	BaseURL string
	// APIKeyEnv names the environment variable that holds the API key
	// ("OPENAI_API_KEY"). Empty means the server needs no key (local vLLM,
	// Ollama).
	APIKeyEnv string
	// AzureAPIVersion, when set, switches the openai provider to Azure
	// OpenAI's conventions: an api-key header and an api-version query.
	AzureAPIVersion string
	Temperature     float64 // 0..2; 0 is the default and the most repeatable
	MaxTokens       int     // answer budget; 0 means DefaultMaxTokens
	// Timeout bounds one HTTP attempt; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxRetries bounds the retries after a 429, a 5xx or a transport
	// error; 0 means DefaultMaxRetries, a negative value none.
	MaxRetries int
}

// Defaults of Config's zero fields.
const (
	DefaultMaxTokens  = 4096
	DefaultTimeout    = 2 * time.Minute
	DefaultMaxRetries = 3
)

// PromptVersion names the prompt template and the answer schema. Change it
// whenever either changes: it enters Config.Key, so cached answers to an old
// prompt are not served for a new one.
const PromptVersion = "lm-verify/1"

// withDefaults returns c with its zero fields filled in, so that a Config
// spelling out a default and one leaving it out give the same Key.
func (c Config) withDefaults() Config {
	if c.BaseURL == "" {
		if info, ok := providers.Lookup(c.Provider); ok {
			c.BaseURL = info.DefaultBaseURL
		}
	}
	if c.MaxTokens == 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	switch {
	case c.MaxRetries == 0:
		c.MaxRetries = DefaultMaxRetries
	case c.MaxRetries < 0:
		c.MaxRetries = 0
	}
	return c
}

// Validate reports the first problem of c, naming the field.
func (c Config) Validate() error {
	if _, ok := providers.Lookup(c.Provider); !ok {
		return fmt.Errorf("lm config: provider %q is not one of %v", c.Provider, providers.Names())
	}
	if c.Model == "" {
		return fmt.Errorf("lm config: model is empty")
	}
	if math.IsNaN(c.Temperature) || c.Temperature < 0 || c.Temperature > 2 {
		return fmt.Errorf("lm config: temperature %v is outside 0..2", c.Temperature)
	}
	if c.MaxTokens < 0 {
		return fmt.Errorf("lm config: max_tokens %d is negative", c.MaxTokens)
	}
	if c.Timeout < 0 {
		return fmt.Errorf("lm config: timeout %v is negative", c.Timeout)
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("lm config: base_url %q is not an http(s) URL", c.BaseURL)
		}
		if u.User != nil || u.RawQuery != "" {
			// Credentials belong in the environment, not in a URL that
			// enters cache keys and error messages.
			return fmt.Errorf("lm config: base_url must not hold credentials or a query")
		}
	}
	return nil
}

// Key returns a canonical JSON object of everything that decides the
// model's answers to a given file: provider, model, endpoint, Azure API
// version, temperature, answer budget and PromptVersion. Timeouts, retries,
// the API key and the name of its variable are left out: they change how an
// answer is fetched, not what it says.
func (c Config) Key() string { return c.keyFor(PromptVersion) }

// keyFor is Key for the prompt and answer schema named prompt: each user of
// a Config (verifier, masker) versions its own prompt.
func (c Config) keyFor(prompt string) string {
	c = c.withDefaults()
	// Fields in alphabetical order of their JSON names, so the text is
	// canonical without a sorting pass. The temperature is written as text
	// (shortest round-trip form) so that even an invalid NaN has a spelling.
	key := struct {
		AzureAPIVersion string `json:"azure_api_version,omitempty"`
		BaseURL         string `json:"base_url"`
		MaxTokens       int    `json:"max_tokens"`
		Model           string `json:"model"`
		Prompt          string `json:"prompt"`
		Provider        string `json:"provider"`
		Temperature     string `json:"temperature"`
	}{c.AzureAPIVersion, c.BaseURL, c.MaxTokens, c.Model, prompt, c.Provider,
		strconv.FormatFloat(c.Temperature, 'g', -1, 64)}
	b, _ := json.Marshal(key) // strings and an int: marshalling cannot fail
	return string(b)
}

// apiKey reads the key at the moment of use, so that no struct holds it.
func (c Config) apiKey() (string, error) {
	if c.APIKeyEnv == "" {
		return "", nil
	}
	key := os.Getenv(c.APIKeyEnv)
	if key == "" {
		return "", fmt.Errorf("%s: environment variable %s is empty or unset", c.Provider, c.APIKeyEnv)
	}
	return key, nil
}

// providerInfo is a registered provider: how to build one, and its public
// endpoint (the default BaseURL).
type providerInfo struct {
	DefaultBaseURL string
	New            func(Config) Provider
}

var providers = registry.New[providerInfo]("lm provider")

func init() {
	providers.Register(OpenAIName, providerInfo{DefaultBaseURL: OpenAIBaseURL, New: newOpenAI})
	providers.Register(AnthropicName, providerInfo{DefaultBaseURL: AnthropicBaseURL, New: newAnthropic})
}

// ProviderNames returns the names NewProvider accepts, sorted.
func ProviderNames() []string { return providers.Names() }

// NewProvider validates cfg and returns its provider. It checks that the
// API key's variable is set, so a missing key fails before any work starts.
func NewProvider(cfg Config) (Provider, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if _, err := cfg.apiKey(); err != nil {
		return nil, err
	}
	info, _ := providers.Lookup(cfg.Provider)
	return info.New(cfg.withDefaults()), nil
}
