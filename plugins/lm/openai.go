package lm

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// OpenAIName is the registry name of the OpenAI chat-completions provider,
// and OpenAIBaseURL its public endpoint.
const (
	OpenAIName    = "openai"
	OpenAIBaseURL = "https://api.openai.com/v1"
)

// openAI speaks POST {BaseURL}/chat/completions: OpenAI itself, Azure
// OpenAI (with AzureAPIVersion), and the OpenAI-compatible servers of vLLM,
// Ollama and others.
type openAI struct {
	cfg  Config
	http *httpCaller
}

func newOpenAI(cfg Config) Provider {
	return &openAI{cfg: cfg, http: newHTTPCaller(OpenAIName, cfg)}
}

type openAIMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type openAIRequest struct {
	Model          string          `json:"model"`
	Messages       []openAIMessage `json:"messages"`
	Temperature    float64         `json:"temperature"`
	MaxTokens      int             `json:"max_tokens"`
	ResponseFormat struct {
		Type string `json:"type"`
	} `json:"response_format"`
}

type openAIResponse struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
			Refusal string  `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
}

// Complete implements Provider.
func (p *openAI) Complete(ctx context.Context, req Request) (Response, error) {
	key, err := p.cfg.apiKey()
	if err != nil {
		return Response{}, err
	}
	body := openAIRequest{
		Model: req.Model,
		Messages: []openAIMessage{
			{Role: "system", Content: req.System},
			{Role: "user", Content: req.Prompt},
		},
		Temperature: req.Temperature,
		MaxTokens:   req.MaxTokens,
	}
	// JSON mode: the server only returns syntactically valid JSON objects.
	body.ResponseFormat.Type = "json_object"

	endpoint := strings.TrimSuffix(p.cfg.BaseURL, "/") + "/chat/completions"
	header := http.Header{}
	if p.cfg.AzureAPIVersion != "" {
		endpoint += "?api-version=" + url.QueryEscape(p.cfg.AzureAPIVersion)
		if key != "" {
			header.Set("api-key", key)
		}
	} else if key != "" {
		header.Set("Authorization", "Bearer "+key)
	}

	var resp openAIResponse
	if err := p.http.postJSON(ctx, endpoint, header, body, &resp, key); err != nil {
		return Response{}, err
	}
	if len(resp.Choices) == 0 {
		return Response{}, fmt.Errorf("%s: response has no choices", OpenAIName)
	}
	msg := resp.Choices[0].Message
	if msg.Content == nil {
		if msg.Refusal != "" {
			return Response{}, fmt.Errorf("%s: model refused: %s", OpenAIName, snippet([]byte(msg.Refusal), key))
		}
		return Response{}, fmt.Errorf("%s: response has no message content (finish_reason %q)",
			OpenAIName, resp.Choices[0].FinishReason)
	}
	return Response{Text: *msg.Content}, nil
}
