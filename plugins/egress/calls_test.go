package egress

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestModelCallBudget: past budget.steps a model call (a POST) is refused
// with 429 and a body that says why, on the proxy port and on a loopback
// relay alike; requests that are not model calls still pass.
func TestModelCallBudget(t *testing.T) {
	lm := server(t, "lm")
	for _, via := range []string{"proxy", "relay"} {
		t.Run(via, func(t *testing.T) {
			var log bytes.Buffer
			p, err := New([]string{lm}, &log)
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var overs []int
			p.LimitModelCalls(2, func(call int) {
				mu.Lock()
				overs = append(overs, call)
				mu.Unlock()
			})
			client, base := http.DefaultClient, "http://"+lm
			if via == "proxy" {
				proxy := listen(t, p.ServeProxy)
				client = &http.Client{Transport: &http.Transport{Proxy: func(*http.Request) (*url.URL, error) {
					return url.Parse("http://" + proxy)
				}}}
			} else {
				base = "http://" + listen(t, p.Relay(lm))
			}
			do := func(method, path string) (int, string) {
				req, _ := http.NewRequest(method, base+path, strings.NewReader("{}"))
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return resp.StatusCode, string(b)
			}
			for i, tc := range []struct {
				method, path string
				status       int
				body         string
			}{
				{"POST", "/v1/chat/completions", 200, "lm /v1/chat/completions"},
				{"GET", "/v1/models", 200, "lm /v1/models"},
				{"POST", "/v1/chat/completions", 200, "lm"},
				{"POST", "/v1/chat/completions", 429, "model call 3, budget.steps is 2"},
				{"GET", "/v1/models", 200, "lm"},
				{"POST", "/v1/responses", 429, "model call 4, budget.steps is 2"},
			} {
				status, body := do(tc.method, tc.path)
				if status != tc.status || !strings.Contains(body, tc.body) {
					t.Errorf("request %d (%s %s): got %d %q, want %d %q", i, tc.method, tc.path, status, body, tc.status, tc.body)
				}
			}
			if n := p.ModelCalls(); n != 2 {
				t.Errorf("ModelCalls = %d, want 2", n)
			}
			mu.Lock()
			if fmt.Sprint(overs) != "[3 4]" {
				t.Errorf("over was told %v, want [3 4]", overs)
			}
			mu.Unlock()
			want := strings.Join([]string{
				"allowed POST http://" + lm + "/v1/chat/completions (model call 1)",
				"allowed GET http://" + lm + "/v1/models",
				"allowed POST http://" + lm + "/v1/chat/completions (model call 2)",
				"refused POST http://" + lm + "/v1/chat/completions: model call 3 over budget.steps 2",
				"allowed GET http://" + lm + "/v1/models",
				"refused POST http://" + lm + "/v1/responses: model call 4 over budget.steps 2",
			}, "\n") + "\n"
			if log.String() != want {
				t.Errorf("log:\n%s\nwant:\n%s", log.String(), want)
			}
		})
	}
}

// TestRelayStreams: the relay passes server-sent events on as they come
// (Codex reads its Responses stream event by event): the server sends its
// second event only after the client has read the first.
func TestRelayStreams(t *testing.T) {
	next := make(chan struct{})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: one\n\n")
		w.(http.Flusher).Flush()
		<-next
		fmt.Fprint(w, "data: two\n\n")
	}))
	defer s.Close()
	defer func() {
		select {
		case <-next:
		default:
			close(next)
		}
	}()
	target := strings.TrimPrefix(s.URL, "http://")
	p, err := New([]string{target}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	p.LimitModelCalls(5, nil)
	// A relay that buffered the stream would never give the first
	// event; the generous timeout turns that into a failure.
	client := &http.Client{Timeout: 2 * time.Minute}
	resp, err := client.Post("http://"+listen(t, p.Relay(target))+"/v1/responses", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	if line, err := br.ReadString('\n'); err != nil || line != "data: one\n" {
		t.Fatalf("first event: %q, %v", line, err)
	}
	close(next)
	rest, _ := io.ReadAll(br)
	if string(rest) != "\ndata: two\n\n" {
		t.Errorf("rest of the stream: %q", rest)
	}
}

// TestRelayTLS: a TLS connection to a loopback relay passes byte for byte
// and its requests cannot be counted; the log says so.
func TestRelayTLS(t *testing.T) {
	s := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "tls ", r.URL.Path)
	}))
	defer s.Close()
	target := strings.TrimPrefix(s.URL, "https://")
	var log bytes.Buffer
	p, err := New([]string{target}, &log)
	if err != nil {
		t.Fatal(err)
	}
	p.LimitModelCalls(1, nil)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, DisableKeepAlives: true}}
	relay := listen(t, p.Relay(target))
	for range 2 {
		resp, err := client.Post("https://"+relay+"/v1/responses", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != "tls /v1/responses" {
			t.Errorf("got %d %q", resp.StatusCode, b)
		}
	}
	if n := p.ModelCalls(); n != 0 {
		t.Errorf("ModelCalls = %d over TLS, want 0", n)
	}
	if !strings.Contains(log.String(), "allowed relay "+target+" (TLS: model calls not counted)") {
		t.Errorf("log:\n%s", log.String())
	}
}
