package egress

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"time"
)

// A model call is a POST request the proxy passes to an allowed endpoint
// over plain HTTP: every LM API's generation call is one (chat
// completions, the Responses API, Anthropic's messages), and the other
// requests a client makes (GET /v1/models) are not. The proxy counts them
// itself, without trusting the agent, where it can see them: requests with
// an absolute http:// URL on the proxy port, and requests on a loopback
// relay (an LM server on the host, fakelm in tests). Inside a CONNECT
// tunnel or a TLS relay the requests are encrypted; those are not counted
// and the agent's own reports are all there is (the solve step's usage
// file).

// StatusOverBudget answers a model call past the step budget: "Too Many
// Requests" is what an LM API says when a caller is over its quota.
const StatusOverBudget = http.StatusTooManyRequests

// tlsHandshake is the first byte of a TLS connection (a handshake record).
const tlsHandshake = 0x16

// LimitModelCalls makes the model call after the max-th refused (with
// StatusOverBudget) and calls over with its number, once per refused call;
// max 0 counts without a limit. Set it before the proxy serves.
func (p *Proxy) LimitModelCalls(max int, over func(call int)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.maxCalls, p.over = max, over
}

// ModelCalls is the number of model calls passed on so far.
func (p *Proxy) ModelCalls() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls
}

// admit decides on one request the proxy would pass: a model call within
// the budget is counted, one past it refused. It returns the call's
// number (0 for a request that is not a model call) and whether it may
// pass.
func (p *Proxy) admit(req *http.Request) (call int, ok bool) {
	if req.Method != http.MethodPost {
		return 0, true
	}
	p.mu.Lock()
	if p.maxCalls > 0 && p.calls >= p.maxCalls {
		p.refusedCalls++
		call, over := p.calls+p.refusedCalls, p.over
		p.mu.Unlock()
		if over != nil {
			over(call)
		}
		return call, false
	}
	p.calls++
	call = p.calls
	p.mu.Unlock()
	return call, true
}

// overBudget logs a model call past the budget and returns the body that
// refuses it.
func (p *Proxy) overBudget(req *http.Request, target string, call int) string {
	p.mu.Lock()
	max := p.maxCalls
	p.mu.Unlock()
	p.logf("refused %s http://%s%s: model call %d over budget.steps %d", req.Method, target, req.URL.Path, call, max)
	return fmt.Sprintf("osbench: step budget spent: model call %d, budget.steps is %d; the attempt is ending\n", call, max)
}

// describe is the log line's tail for a request passed on.
func describe(req *http.Request, target string, call int) string {
	s := fmt.Sprintf("%s http://%s%s", req.Method, target, req.URL.Path)
	if call > 0 {
		s += fmt.Sprintf(" (model call %d)", call)
	}
	return s
}

// relayHTTP serves a connection to a loopback relay as HTTP, so that the
// model calls on it are counted: each request is decided (admit) and
// passed to target by a reverse proxy, which streams server-sent events
// as they come and passes protocol upgrades on. br holds what was read of
// c already.
func (p *Proxy) relayHTTP(c net.Conn, br *bufio.Reader, target string) {
	upstream := &url.URL{Scheme: "http", Host: target}
	transport := &http.Transport{
		DialContext: func(_ context.Context, _, _ string) (net.Conn, error) {
			up, done, err := p.open(target)
			if err != nil {
				return nil, err
			}
			return &trackedConn{Conn: up, done: done}, nil
		},
		// One client connection, so at most a few upstream ones; they
		// end with it.
		MaxIdleConnsPerHost: 2,
		IdleConnTimeout:     time.Minute,
	}
	defer transport.CloseIdleConnections()
	rp := &httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.SetURL(upstream) },
		Transport: transport,
		ErrorLog:  log.New(io.Discard, "", 0),
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			p.logf("failed %s http://%s%s: %v", r.Method, target, r.URL.Path, err)
			http.Error(w, "osbench: "+err.Error(), http.StatusBadGateway)
		},
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		call, ok := p.admit(r)
		if !ok {
			body := p.overBudget(r, target, call)
			w.Header().Set("Connection", "close")
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(StatusOverBudget)
			_, _ = io.WriteString(w, body)
			return
		}
		p.logf("allowed %s", describe(r, target, call))
		rp.ServeHTTP(w, r)
	})
	srv := &http.Server{Handler: handler, ErrorLog: log.New(io.Discard, "", 0), ReadHeaderTimeout: time.Minute}
	_ = srv.Serve(newOneConnListener(&bufferedConn{Conn: c, r: br}))
}

// trackedConn is an upstream connection the proxy's Stop can close; its
// Close forgets it.
type trackedConn struct {
	net.Conn
	once sync.Once
	done func()
}

func (t *trackedConn) Close() error {
	t.once.Do(t.done)
	return nil
}

// bufferedConn is a connection some of whose bytes a bufio.Reader already
// holds.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (b *bufferedConn) Read(p []byte) (int, error) { return b.r.Read(p) }

// oneConnListener hands an http.Server one connection, then blocks until
// that connection is closed, so Serve returns when it is over.
type oneConnListener struct {
	conn   net.Conn
	mu     sync.Mutex
	handed bool
	closed chan struct{}
	once   sync.Once
}

func newOneConnListener(c net.Conn) *oneConnListener {
	l := &oneConnListener{closed: make(chan struct{})}
	l.conn = &notifyConn{Conn: c, closed: l.close}
	return l
}

func (l *oneConnListener) close() { l.once.Do(func() { close(l.closed) }) }

func (l *oneConnListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	if !l.handed {
		l.handed = true
		l.mu.Unlock()
		return l.conn, nil
	}
	l.mu.Unlock()
	<-l.closed
	return nil, net.ErrClosed
}

func (l *oneConnListener) Close() error   { l.close(); return nil }
func (l *oneConnListener) Addr() net.Addr { return l.conn.LocalAddr() }

// notifyConn tells its listener when the server closes it.
type notifyConn struct {
	net.Conn
	closed func()
}

func (n *notifyConn) Close() error {
	err := n.Conn.Close()
	n.closed()
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}
