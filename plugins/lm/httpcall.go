package lm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Bounds of what one exchange may cost.
const (
	maxResponseBytes = 8 << 20 // a verification answer is a few KiB
	maxSnippetBytes  = 512     // of an error body, quoted in the error
	maxRetryWait     = time.Minute
)

// HTTPError is a non-2xx answer of a provider, after retries.
type HTTPError struct {
	Provider   string // "openai", "anthropic"
	StatusCode int
	Status     string // "401 Unauthorized"
	// Body is the start of the response body, with any echo of the API
	// key redacted.
	Body string
}

func (e *HTTPError) Error() string {
	if e.Body == "" {
		return fmt.Sprintf("%s: HTTP %s", e.Provider, e.Status)
	}
	return fmt.Sprintf("%s: HTTP %s: %s", e.Provider, e.Status, e.Body)
}

// retryable reports whether a later attempt may get another answer:
// rate limits and server-side failures, not client errors.
func (e *HTTPError) retryable() bool {
	return e.StatusCode == http.StatusTooManyRequests || e.StatusCode >= 500
}

// backoff is the wait between attempts: exponential from base, capped at
// max, with jitter so that parallel verifiers do not retry in step.
type backoff struct {
	base, max time.Duration
}

var defaultBackoff = backoff{base: 500 * time.Millisecond, max: 8 * time.Second}

// wait returns the wait before retry number n (0-based).
func (b backoff) wait(n int) time.Duration {
	d := b.base
	for i := 0; i < n && d < b.max; i++ {
		d *= 2
	}
	d = min(d, b.max)
	if d <= 1 {
		return d
	}
	half := d / 2
	return half + rand.N(half)
}

// httpCaller posts JSON to one provider and decodes its JSON answers.
type httpCaller struct {
	provider   string // for messages
	client     *http.Client
	maxRetries int
	backoff    backoff
}

func newHTTPCaller(provider string, cfg Config) *httpCaller {
	return &httpCaller{
		provider:   provider,
		client:     &http.Client{Timeout: cfg.Timeout},
		maxRetries: cfg.MaxRetries,
		backoff:    defaultBackoff,
	}
}

// postJSON sends body to url with header, retrying 429, 5xx and transport
// failures, and decodes a 2xx answer into out. secret is the API key in
// use: it is redacted from anything quoted in an error.
func (h *httpCaller) postJSON(ctx context.Context, url string, header http.Header, body, out any, secret string) error {
	payload, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("%s: encode request: %w", h.provider, err)
	}
	for attempt := 0; ; attempt++ {
		raw, retryAfter, retryable, err := h.post(ctx, url, header, payload, secret)
		if err == nil {
			if err := json.Unmarshal(raw, out); err != nil {
				return fmt.Errorf("%s: decode response: %v (body: %s)", h.provider, err, snippet(raw, secret))
			}
			return nil
		}
		if !retryable || ctx.Err() != nil || attempt >= h.maxRetries {
			return err
		}
		wait := h.backoff.wait(attempt)
		if retryAfter > 0 {
			wait = min(retryAfter, maxRetryWait)
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return fmt.Errorf("%s: %w (while waiting to retry after: %v)", h.provider, ctx.Err(), err)
		case <-timer.C:
		}
	}
}

// post makes one attempt. It returns the body of a 2xx answer, or an
// error, whether another attempt may succeed, and the wait the server asked
// for (Retry-After), if any.
func (h *httpCaller) post(ctx context.Context, url string, header http.Header, payload []byte, secret string) (body []byte, retryAfter time.Duration, retryable bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		return nil, 0, false, fmt.Errorf("%s: %w", h.provider, err)
	}
	req.Header = header.Clone()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "osbench")
	resp, err := h.client.Do(req)
	if err != nil {
		// A transport failure (refused, reset, timed out) may pass. The
		// *url.Error names the method and URL; neither holds the key.
		return nil, 0, true, fmt.Errorf("%s: %w", h.provider, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return nil, 0, true, fmt.Errorf("%s: read response (HTTP %s): %w", h.provider, resp.Status, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		httpErr := &HTTPError{Provider: h.provider, StatusCode: resp.StatusCode, Status: resp.Status, Body: snippet(raw, secret)}
		return nil, parseRetryAfter(resp.Header.Get("Retry-After")), httpErr.retryable(), httpErr
	}
	if len(raw) > maxResponseBytes {
		return nil, 0, false, fmt.Errorf("%s: response is larger than %d bytes", h.provider, maxResponseBytes)
	}
	return raw, 0, false, nil
}

// parseRetryAfter reads a Retry-After header in seconds or as an HTTP date;
// 0 means none (or one that says "now").
func parseRetryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}

// snippet returns the start of body for an error message: the key
// redacted, valid UTF-8, whitespace runs folded, at most maxSnippetBytes.
func snippet(body []byte, secret string) string {
	s := string(body)
	if secret != "" {
		s = strings.ReplaceAll(s, secret, "[redacted]")
	}
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	if len(s) <= maxSnippetBytes {
		return s
	}
	cut := maxSnippetBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
