package lm

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// AnthropicName is the registry name of the Anthropic Messages provider,
// AnthropicBaseURL its public endpoint, and AnthropicVersion the API
// version it speaks.
const (
	AnthropicName    = "anthropic"
	AnthropicBaseURL = "https://api.anthropic.com"
	AnthropicVersion = "2023-06-01"
)

// anthropic speaks POST {BaseURL}/v1/messages.
type anthropic struct {
	cfg  Config
	http *httpCaller
}

func newAnthropic(cfg Config) Provider {
	return &anthropic{cfg: cfg, http: newHTTPCaller(AnthropicName, cfg)}
}

type anthropicMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type anthropicRequest struct {
	Model       string             `json:"model"`
	System      string             `json:"system,omitempty"`
	Messages    []anthropicMessage `json:"messages"`
	MaxTokens   int                `json:"max_tokens"`
	Temperature float64            `json:"temperature"`
}

type anthropicResponse struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
}

// Complete implements Provider.
func (p *anthropic) Complete(ctx context.Context, req Request) (Response, error) {
	key, err := p.cfg.apiKey()
	if err != nil {
		return Response{}, err
	}
	body := anthropicRequest{
		Model:       req.Model,
		System:      req.System,
		Messages:    []anthropicMessage{{Role: "user", Content: req.Prompt}},
		MaxTokens:   req.MaxTokens,
		Temperature: req.Temperature,
	}
	header := http.Header{}
	header.Set("anthropic-version", AnthropicVersion)
	if key != "" {
		header.Set("x-api-key", key)
	}
	endpoint := strings.TrimSuffix(p.cfg.BaseURL, "/") + "/v1/messages"

	var resp anthropicResponse
	if err := p.http.postJSON(ctx, endpoint, header, body, &resp, key); err != nil {
		return Response{}, err
	}
	// The answer is the text blocks in order; other block kinds (thinking,
	// tool use) are not part of it.
	var text strings.Builder
	found := false
	for _, block := range resp.Content {
		if block.Type == "text" {
			text.WriteString(block.Text)
			found = true
		}
	}
	if !found {
		return Response{}, fmt.Errorf("%s: response has no text content (stop_reason %q)", AnthropicName, resp.StopReason)
	}
	return Response{Text: text.String()}, nil
}
