// Package egress is the proxy through which an agent under `osbench solve`
// reaches the LM endpoints its declaration allows (network.allow) and
// nothing else. The agent runs without the network; the executor hands
// osbench each connection the agent makes to a loopback port
// (executors.LoopbackPort), and this package serves it:
//
//   - on the proxy port, as an HTTP proxy: CONNECT host:port (what HTTPS
//     through HTTPS_PROXY does) and plain requests with an absolute URL
//     (HTTP_PROXY), each passed on only when host:port is in the list;
//   - on the port of an allowed loopback endpoint (127.0.0.1:8080), as a
//     byte relay to the same address on the host, because clients skip
//     the proxy for loopback addresses (Go's net/http always, others by
//     NO_PROXY defaults).
//
// Everything else is refused with 403 and every decision is a line of the
// log, which the solve step keeps as a side artifact. The list is compared
// exactly, host case-folded: "llm.example:443" lets neither
// "llm.example:80" nor another name of the same address through.
package egress

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// dialTimeout bounds a connection to an allowed endpoint.
const dialTimeout = 30 * time.Second

// Proxy decides and logs. It is safe for concurrent use.
type Proxy struct {
	allow []string
	mu    sync.Mutex
	log   io.Writer
	// dial opens a connection to an allowed endpoint.
	dial func(network, addr string) (net.Conn, error)
	// live are the open upstream connections, closed by Stop; stopped
	// refuses new ones and silences the log.
	live    map[net.Conn]bool
	stopped bool
	// calls counts the model calls passed on (calls.go); past maxCalls
	// (0: no limit) they are refused, counted in refusedCalls, and over
	// is told.
	calls, maxCalls, refusedCalls int
	over                          func(call int)
}

// New returns a proxy that lets the endpoints of allow (host:port) through
// and writes one line per decision to log.
func New(allow []string, log io.Writer) (*Proxy, error) {
	var norm []string
	for _, a := range allow {
		n, err := normalize(a)
		if err != nil {
			return nil, fmt.Errorf("egress: allow %q: %w", a, err)
		}
		norm = append(norm, n)
	}
	d := &net.Dialer{Timeout: dialTimeout}
	return &Proxy{allow: norm, log: log, dial: d.Dial, live: map[net.Conn]bool{}}, nil
}

// Stop ends every tunnel and relay still open and stops logging: the
// agent's processes are gone, and the log is about to be closed.
func (p *Proxy) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	p.log = io.Discard
	for c := range p.live {
		c.Close()
	}
}

// open dials an allowed endpoint and tracks the connection for Stop.
func (p *Proxy) open(target string) (net.Conn, func(), error) {
	up, err := p.dial("tcp", target)
	if err != nil {
		return nil, nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		up.Close()
		return nil, nil, fmt.Errorf("the agent's run is over")
	}
	p.live[up] = true
	return up, func() {
		p.mu.Lock()
		delete(p.live, up)
		p.mu.Unlock()
		up.Close()
	}, nil
}

// normalize makes host:port comparable: the host lower-case, IPv6 in
// brackets, the port a number.
func normalize(hostport string) (string, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return "", err
	}
	if host == "" {
		return "", fmt.Errorf("no host")
	}
	n, err := strconv.Atoi(port)
	if err != nil || n <= 0 || n > 65535 {
		return "", fmt.Errorf("port %q: want 1..65535", port)
	}
	return net.JoinHostPort(strings.ToLower(host), strconv.Itoa(n)), nil
}

// Allowed reports whether host:port is in the list.
func (p *Proxy) Allowed(hostport string) bool {
	n, err := normalize(hostport)
	return err == nil && slices.Contains(p.allow, n)
}

// LoopbackRelays are the allowed endpoints on a loopback address, by
// port: the ones a client reaches directly rather than through the proxy.
func (p *Proxy) LoopbackRelays() map[int]string {
	out := map[int]string{}
	for _, a := range p.allow {
		host, port, _ := net.SplitHostPort(a)
		if ip := net.ParseIP(host); (ip != nil && ip.IsLoopback()) || host == "localhost" {
			n, _ := strconv.Atoi(port)
			if _, dup := out[n]; !dup {
				out[n] = a
			}
		}
	}
	return out
}

func (p *Proxy) logf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.log, format+"\n", args...)
}

// Relay returns the Serve function of a loopback port that stands for the
// allowed endpoint target: each connection is served as HTTP, its model
// calls counted (calls.go), or, when it opens with a TLS handshake, joined
// byte for byte to target on the host, uncounted.
func (p *Proxy) Relay(target string) func(net.Conn) {
	return func(c net.Conn) {
		defer c.Close()
		if !p.Allowed(target) {
			p.logf("refused relay %s: not in network.allow", target)
			return
		}
		br := bufio.NewReader(c)
		first, err := br.Peek(1)
		if err != nil {
			return
		}
		if first[0] != tlsHandshake {
			p.relayHTTP(c, br, target)
			return
		}
		up, done, err := p.open(target)
		if err != nil {
			p.logf("failed relay %s: %v", target, err)
			return
		}
		defer done()
		p.logf("allowed relay %s (TLS: model calls not counted)", target)
		pipe(c, up, br)
	}
}

// ServeProxy serves one client connection of the proxy port: requests in
// turn until the client closes or a tunnel takes the connection over.
func (p *Proxy) ServeProxy(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			if err != io.EOF {
				p.logf("refused: not an HTTP proxy request: %v", err)
			}
			return
		}
		if req.Method == http.MethodConnect {
			p.connect(c, br, req)
			return
		}
		if !p.forward(c, req) {
			return
		}
	}
}

// connect opens a tunnel to an allowed host:port.
func (p *Proxy) connect(c net.Conn, br *bufio.Reader, req *http.Request) {
	target := req.RequestURI
	if !p.Allowed(target) {
		p.logf("refused CONNECT %s: not in network.allow", target)
		refuse(c, http.StatusForbidden, "osbench: "+target+" is not in the agent's network.allow\n")
		return
	}
	up, done, err := p.open(target)
	if err != nil {
		p.logf("failed CONNECT %s: %v", target, err)
		refuse(c, http.StatusBadGateway, "osbench: "+err.Error()+"\n")
		return
	}
	defer done()
	p.logf("allowed CONNECT %s", target)
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	pipe(c, up, br)
}

// forward passes one plain HTTP request with an absolute URL on to an
// allowed host and writes the answer back. It reports whether the client
// connection can carry another request.
func (p *Proxy) forward(c net.Conn, req *http.Request) bool {
	u := req.URL
	if !u.IsAbs() || u.Scheme != "http" {
		p.logf("refused %s %s: not a proxy request (absolute http:// URL)", req.Method, req.RequestURI)
		refuse(c, http.StatusBadRequest, "osbench: only CONNECT and absolute http:// URLs pass this proxy\n")
		return false
	}
	target := u.Host
	if u.Port() == "" {
		target = net.JoinHostPort(u.Hostname(), "80")
	}
	if !p.Allowed(target) {
		p.logf("refused %s http://%s%s: not in network.allow", req.Method, u.Host, u.Path)
		refuse(c, http.StatusForbidden, "osbench: "+target+" is not in the agent's network.allow\n")
		return false
	}
	call, ok := p.admit(req)
	if !ok {
		refuse(c, StatusOverBudget, p.overBudget(req, u.Host, call))
		return false
	}
	up, done, err := p.open(target)
	if err != nil {
		p.logf("failed %s http://%s%s: %v", req.Method, u.Host, u.Path, err)
		refuse(c, http.StatusBadGateway, "osbench: "+err.Error()+"\n")
		return false
	}
	defer done()
	p.logf("allowed %s", describe(req, u.Host, call))
	// Hop-by-hop headers stay here; the request goes on in origin form,
	// one per upstream connection.
	req.Header.Del("Proxy-Connection")
	req.Header.Del("Proxy-Authorization")
	req.Close = true
	if err := req.Write(up); err != nil {
		return false
	}
	resp, err := http.ReadResponse(bufio.NewReader(up), req)
	if err != nil {
		refuse(c, http.StatusBadGateway, "osbench: "+err.Error()+"\n")
		return false
	}
	defer resp.Body.Close()
	resp.Close = true
	_ = resp.Write(c)
	return false
}

// refuse answers a proxy request the proxy will not pass.
func refuse(c net.Conn, status int, body string) {
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		status, http.StatusText(status), len(body), body)
}

// pipe copies both ways (the client's already-read bytes first) until both
// directions end, passing a half close on.
func pipe(client, up net.Conn, buffered *bufio.Reader) {
	var from io.Reader = client
	if buffered != nil {
		from = buffered
	}
	done := make(chan struct{}, 2)
	half := func(dst net.Conn, src io.Reader) {
		_, _ = io.Copy(dst, src)
		if cw, ok := dst.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		} else {
			dst.Close()
		}
		done <- struct{}{}
	}
	go half(up, from)
	go half(client, up)
	<-done
	<-done
}
