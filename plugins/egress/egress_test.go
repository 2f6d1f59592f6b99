package egress

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// listen serves fn on a fresh loopback listener, as the executor's
// loopback ports do, and returns its address.
func listen(t *testing.T, fn func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go fn(c)
		}
	}()
	return ln.Addr().String()
}

func server(t *testing.T, name string) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s %s", name, r.URL.Path)
	}))
	t.Cleanup(s.Close)
	return strings.TrimPrefix(s.URL, "http://")
}

// connect asks the proxy at proxy for a tunnel to target and, when it is
// open, a plain GET through it.
func connect(t *testing.T, proxy, target string) (status int, body string) {
	t.Helper()
	c, err := net.Dial("tcp", proxy)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	fmt.Fprintf(c, "GET /tunnel HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", target)
	resp, err = http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestProxy(t *testing.T) {
	lm, other := server(t, "lm"), server(t, "other")
	var log bytes.Buffer
	p, err := New([]string{lm, "LLM.example:443"}, &log)
	if err != nil {
		t.Fatal(err)
	}
	dialed := []string{}
	dial := p.dial
	p.dial = func(network, addr string) (net.Conn, error) {
		dialed = append(dialed, addr)
		return dial(network, addr)
	}
	proxy := listen(t, p.ServeProxy)
	client := &http.Client{Transport: &http.Transport{Proxy: func(*http.Request) (*url.URL, error) {
		return url.Parse("http://" + proxy)
	}}}
	get := func(u string) (int, string) {
		resp, err := client.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	for _, tc := range []struct {
		name   string
		do     func() (int, string)
		status int
		body   string
	}{
		{"allowed tunnel", func() (int, string) { return connect(t, proxy, lm) }, 200, "lm /tunnel"},
		{"allowed plain", func() (int, string) { return get("http://" + lm + "/v1/chat") }, 200, "lm /v1/chat"},
		{"registry", func() (int, string) { return connect(t, proxy, "proxy.golang.org:443") }, 403, "not in the agent's network.allow"},
		{"other loopback tunnel", func() (int, string) { return connect(t, proxy, other) }, 403, "not in"},
		{"other loopback plain", func() (int, string) { return get("http://" + other + "/x") }, 403, "not in"},
		{"allowed host, other port", func() (int, string) { return connect(t, proxy, "llm.example:80") }, 403, "not in"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := tc.do()
			if status != tc.status || !strings.Contains(body, tc.body) {
				t.Errorf("got %d %q, want %d %q", status, body, tc.status, tc.body)
			}
		})
	}
	// A relay port stands for the allowed loopback endpoint only.
	relay := listen(t, p.Relay(lm))
	resp, err := http.Get("http://" + relay + "/direct")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "lm /direct" {
		t.Errorf("relay answered %q", b)
	}
	for _, a := range dialed {
		if a != lm {
			t.Errorf("the proxy dialed %s, which is not allowed", a)
		}
	}
	want := strings.Join([]string{
		"allowed CONNECT " + lm,
		"allowed GET http://" + lm + "/v1/chat",
		"refused CONNECT proxy.golang.org:443: not in network.allow",
		"refused CONNECT " + other + ": not in network.allow",
		"refused GET http://" + other + "/x: not in network.allow",
		"refused CONNECT llm.example:80: not in network.allow",
		"allowed GET http://" + lm + "/direct",
	}, "\n") + "\n"
	if log.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", log.String(), want)
	}
}

func TestNewRejects(t *testing.T) {
	for _, a := range []string{"llm.example", ":443", "llm.example:0", "llm.example:https"} {
		if _, err := New([]string{a}, io.Discard); err == nil {
			t.Errorf("New(%q) accepted it", a)
		}
	}
}

func TestLoopbackRelays(t *testing.T) {
	p, err := New([]string{"127.0.0.1:8080", "llm.example:443", "[::1]:9000", "localhost:7000"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(p.LoopbackRelays())
	if want := "map[7000:localhost:7000 8080:127.0.0.1:8080 9000:[::1]:9000]"; got != want {
		t.Errorf("relays %s, want %s", got, want)
	}
}
