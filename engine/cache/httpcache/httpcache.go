// Package httpcache is a cache.Store over the HTTP remote-cache protocol
// that Bazel uses, so any server speaking it serves osbench: nginx with
// WebDAV PUT, bazel-remote, BuildBuddy and others.
//
//	HEAD /<prefix>/cas/<sha256>   blob size (Content-Length); 404 = miss
//	GET  /<prefix>/cas/<sha256>   blob bytes
//	PUT  /<prefix>/cas/<sha256>   store a blob
//	GET  /<prefix>/ac/<key>       action record (osbench's JSON ActionRecord)
//	PUT  /<prefix>/ac/<key>       store an action record
//
// The prefix is the path of the cache URL (an "instance": one server can
// hold several caches, e.g. http://cache:8080/osbench/ci). Credentials never
// go into the URL: New refuses one with user info; Auth reads them from the
// environment (OSBENCH_REMOTE_CACHE_TOKEN for a bearer token,
// OSBENCH_REMOTE_CACHE_BASIC for "user:password"), and they are sent only
// as an Authorization header, which no error message, log or key shows.
//
// A remote is never trusted: every blob is hashed as it is read and
// refused (*cache.CorruptError) when it does not match its name; an action
// record that does not decode or names another key is a
// *cache.BadRecordError. Every request has a timeout to its response
// headers and between two reads of its body, so a server that hangs costs
// at most Timeout; a body cut short is an error, never a short blob.
//
// Used with cache.(*Cache).AttachRemote, a worker on another machine gets a
// step's inputs by digest (Cache.Pull of the producer's action key, or
// Cache.PullBlob / Cache.PullTree) and uploads its results by storing the
// record (Cache.PutAction, which pushes) — see package cache.
package httpcache

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/osbench/osbench/engine/cache"
)

// Environment variables holding credentials (never a flag, never a URL).
const (
	EnvToken = "OSBENCH_REMOTE_CACHE_TOKEN" // bearer token
	EnvBasic = "OSBENCH_REMOTE_CACHE_BASIC" // user:password for basic auth
)

// maxRecord bounds an action record read from a server.
const maxRecord = 16 << 20

// Options configure a Store.
type Options struct {
	// Timeout bounds the wait for response headers and the gap between
	// two reads (or writes) of a body; default 30s.
	Timeout time.Duration
	// Authorization is the header value sent with every request ("" for
	// none); see Auth.
	Authorization string
}

// Store is a cache.Store over HTTP.
type Store struct {
	base   *url.URL // ends in "/"
	client *http.Client
	opt    Options
}

var _ cache.Store = (*Store)(nil)

// Auth returns the Authorization header value from the environment: a
// bearer token (EnvToken) or basic credentials (EnvBasic), "" when neither
// is set. Both set is an error, as is basic credentials without a colon.
func Auth() (string, error) {
	token, basic := os.Getenv(EnvToken), os.Getenv(EnvBasic)
	switch {
	case token != "" && basic != "":
		return "", fmt.Errorf("both %s and %s are set; set one", EnvToken, EnvBasic)
	case token != "":
		return "Bearer " + token, nil
	case basic != "":
		if !strings.Contains(basic, ":") {
			return "", fmt.Errorf("%s must be user:password", EnvBasic)
		}
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(basic)), nil
	}
	return "", nil
}

// New returns a store for the cache at rawURL (http or https; its path is
// the instance prefix).
func New(rawURL string, opt Options) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("remote cache URL: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("remote cache URL %q: want http://HOST[:PORT][/PREFIX] or https://…", Redact(rawURL))
	}
	if u.User != nil {
		return nil, fmt.Errorf("remote cache URL %q holds credentials; put them in %s or %s instead", Redact(rawURL), EnvToken, EnvBasic)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("remote cache URL %q: no query or fragment allowed", rawURL)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 30 * time.Second
	}
	tr := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         (&net.Dialer{Timeout: opt.Timeout, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout: opt.Timeout,
		// The watchdog (do) bounds the wait for headers with a clearer
		// message; this is only a backstop.
		ResponseHeaderTimeout: 2 * opt.Timeout,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
	}
	return &Store{base: u, client: &http.Client{Transport: tr}, opt: opt}, nil
}

// Redact returns rawURL without user info, for messages.
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User = nil
	return u.String()
}

// String is the cache's URL (it never holds credentials).
func (s *Store) String() string { return strings.TrimSuffix(s.base.String(), "/") }

func (s *Store) url(kind string, d cache.Digest) string {
	return s.base.String() + kind + "/" + string(d)
}

// watchdog cancels a request when no progress was made for the timeout: a
// server that stops sending (or receiving) mid-body cannot hang a build.
type watchdog struct {
	timer *time.Timer
	d     time.Duration
}

func newWatchdog(ctx context.Context, d time.Duration) (context.Context, *watchdog, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	w := &watchdog{d: d}
	w.timer = time.AfterFunc(d, func() { cancel(fmt.Errorf("no progress for %s", d)) })
	return ctx, w, func() { w.timer.Stop(); cancel(nil) }
}

func (w *watchdog) kick() { w.timer.Reset(w.d) }

type kickReader struct {
	r io.Reader
	w *watchdog
}

func (k kickReader) Read(p []byte) (int, error) {
	n, err := k.r.Read(p)
	if n > 0 {
		k.w.kick()
	}
	return n, err
}

func (s *Store) do(ctx context.Context, method, u string, body io.Reader, size int64) (*http.Response, *watchdog, context.CancelFunc, error) {
	ctx, wd, cancel := newWatchdog(ctx, s.opt.Timeout)
	if body != nil && body != http.NoBody {
		body = kickReader{body, wd}
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		cancel()
		return nil, nil, nil, err
	}
	if body != nil {
		req.ContentLength = size
		req.Header.Set("Content-Type", "application/octet-stream")
	}
	if s.opt.Authorization != "" {
		req.Header.Set("Authorization", s.opt.Authorization)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil && !errors.Is(cause, context.Canceled) {
			err = fmt.Errorf("%s %s: %w", method, u, cause)
		}
		cancel()
		return nil, nil, nil, err
	}
	wd.kick()
	return resp, wd, cancel, nil
}

// statusError is a reply that is neither success nor "not found".
func statusError(method, u string, resp *http.Response) error {
	return fmt.Errorf("%s %s: %s", method, u, resp.Status)
}

// BlobSize implements cache.Store with HEAD.
func (s *Store) BlobSize(ctx context.Context, d cache.Digest) (int64, error) {
	if !d.Valid() {
		return 0, fmt.Errorf("blob size: invalid digest %q", d)
	}
	u := s.url("cas", d)
	resp, _, cancel, err := s.do(ctx, http.MethodHead, u, nil, 0)
	if err != nil {
		return 0, err
	}
	defer cancel()
	resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return 0, cache.ErrMiss
	case resp.StatusCode != http.StatusOK:
		return 0, statusError("HEAD", u, resp)
	case resp.ContentLength < 0:
		return 0, fmt.Errorf("HEAD %s: no Content-Length", u)
	}
	return resp.ContentLength, nil
}

// ReadBlob implements cache.Store with GET, hashing the body on the way.
func (s *Store) ReadBlob(ctx context.Context, d cache.Digest, w io.Writer) (int64, error) {
	if !d.Valid() {
		return 0, fmt.Errorf("read blob: invalid digest %q", d)
	}
	u := s.url("cas", d)
	resp, wd, cancel, err := s.do(ctx, http.MethodGet, u, nil, 0)
	if err != nil {
		return 0, err
	}
	defer cancel()
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return 0, cache.ErrMiss
	default:
		return 0, statusError("GET", u, resp)
	}
	hw := &hashCounter{w: w, h: newDigester()}
	n, err := io.Copy(hw, kickReader{resp.Body, wd})
	if err != nil {
		return n, fmt.Errorf("GET %s: body: %w", u, causeOr(ctx, err))
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return n, fmt.Errorf("GET %s: body cut short (%d of %d bytes)", u, n, resp.ContentLength)
	}
	if got := hw.digest(); got != d {
		return n, &cache.CorruptError{Digest: d, Reason: "content hashes to " + got.Short(), Source: s.String()}
	}
	return n, nil
}

// WriteBlob implements cache.Store with PUT. The body is hashed as it is
// sent; bytes that do not hash to d abort the request before it completes,
// so the server never stores them.
func (s *Store) WriteBlob(ctx context.Context, d cache.Digest, size int64, r io.Reader) error {
	if !d.Valid() {
		return fmt.Errorf("write blob: invalid digest %q", d)
	}
	if size == 0 {
		// An empty body is sent as such (Content-Length: 0), not chunked.
		if d != cache.Sum(nil) {
			return &cache.CorruptError{Digest: d, Reason: "0 bytes", Source: "upload"}
		}
		return s.put(ctx, s.url("cas", d), http.NoBody, 0)
	}
	return s.put(ctx, s.url("cas", d), &checkingReader{r: r, want: d, size: size}, size)
}

func (s *Store) put(ctx context.Context, u string, body io.Reader, size int64) error {
	resp, _, cancel, err := s.do(ctx, http.MethodPut, u, body, size)
	if err != nil {
		var corrupt *cache.CorruptError
		if errors.As(err, &corrupt) {
			return corrupt
		}
		return causeOr(ctx, err)
	}
	defer cancel()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return statusError("PUT", u, resp)
	}
	return nil
}

// ReadAction implements cache.Store with GET /ac/.
func (s *Store) ReadAction(ctx context.Context, key cache.Digest) (*cache.ActionRecord, error) {
	if !key.Valid() {
		return nil, fmt.Errorf("get action: invalid key %q", key)
	}
	u := s.url("ac", key)
	resp, wd, cancel, err := s.do(ctx, http.MethodGet, u, nil, 0)
	if err != nil {
		return nil, err
	}
	defer cancel()
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, cache.ErrMiss
	default:
		return nil, statusError("GET", u, resp)
	}
	b, err := io.ReadAll(io.LimitReader(kickReader{resp.Body, wd}, maxRecord+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: body: %w", u, causeOr(ctx, err))
	}
	if resp.ContentLength >= 0 && int64(len(b)) != resp.ContentLength {
		return nil, fmt.Errorf("GET %s: body cut short (%d of %d bytes)", u, len(b), resp.ContentLength)
	}
	if len(b) > maxRecord {
		return nil, &cache.BadRecordError{Key: key, Reason: "larger than 16 MiB"}
	}
	var rec cache.ActionRecord
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&rec); err != nil {
		return nil, &cache.BadRecordError{Key: key, Reason: "does not decode: " + err.Error()}
	}
	if rec.Key != key {
		return nil, &cache.BadRecordError{Key: key, Reason: "names key " + rec.Key.Short()}
	}
	return &rec, nil
}

// WriteAction implements cache.Store with PUT /ac/.
func (s *Store) WriteAction(ctx context.Context, rec *cache.ActionRecord) error {
	if !rec.Key.Valid() {
		return fmt.Errorf("put action: invalid key %q", rec.Key)
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return s.put(ctx, s.url("ac", rec.Key), bytes.NewReader(b), int64(len(b)))
}

// causeOr prefers the watchdog's reason ("no progress for 30s") to the
// bare "context canceled" a stalled transfer ends with.
func causeOr(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
		return fmt.Errorf("%v: %w", err, cause)
	}
	return err
}

// hashCounter hashes what is written through it.
type hashCounter struct {
	w io.Writer
	h *digester
}

func (hc *hashCounter) Write(p []byte) (int, error) {
	n, err := hc.w.Write(p)
	hc.h.Write(p[:n])
	return n, err
}

func (hc *hashCounter) digest() cache.Digest { return hc.h.digest() }

// checkingReader fails the read that reaches the end of r when what was
// read does not have the expected size and digest: an HTTP client then
// aborts the upload instead of completing it.
type checkingReader struct {
	r    io.Reader
	want cache.Digest
	size int64
	h    *digester
	n    int64
}

func (c *checkingReader) Read(p []byte) (int, error) {
	if c.h == nil {
		c.h = newDigester()
	}
	n, err := c.r.Read(p)
	c.h.Write(p[:n])
	c.n += int64(n)
	// A failing check withholds this read's bytes, so the server never
	// receives the whole body and discards what it has.
	if c.n > c.size {
		return 0, &cache.CorruptError{Digest: c.want, Reason: fmt.Sprintf("more than %d bytes", c.size), Source: "upload"}
	}
	if c.n == c.size || err == io.EOF {
		if got := c.h.digest(); got != c.want || c.n != c.size {
			return 0, &cache.CorruptError{Digest: c.want, Reason: fmt.Sprintf("%d bytes hashing to %s", c.n, got.Short()), Source: "upload"}
		}
	}
	return n, err
}
