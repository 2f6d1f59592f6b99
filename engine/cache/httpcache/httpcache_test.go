package httpcache_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/engine/cache/httpcache"
	"github.com/osbench/osbench/engine/cache/httpcache/nginxtest"
	"github.com/osbench/osbench/engine/cache/storetest"
)

// The HTTP store against a real nginx passes the suite every Store passes;
// each case gets its own instance prefix on one server.
func TestNginxStore(t *testing.T) {
	srv := nginxtest.Start(t, nginxtest.Options{})
	n := 0
	storetest.Run(t, func(t *testing.T) storetest.Harness {
		n++
		prefix := fmt.Sprintf("instance-%d", n)
		s, err := httpcache.New(srv.URL+"/"+prefix, httpcache.Options{Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		overwrite := func(t *testing.T, sub string, d cache.Digest, b []byte) {
			if err := os.WriteFile(filepath.Join(srv.Root, prefix, sub, string(d)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return storetest.Harness{
			Store:        s,
			Damage:       func(t *testing.T, d cache.Digest, b []byte) { overwrite(t, "cas", d, b) },
			DamageAction: func(t *testing.T, k cache.Digest, b []byte) { overwrite(t, "ac", k, b) },
		}
	})
}

func TestURLAndAuth(t *testing.T) {
	for _, u := range []string{"ftp://x/", "http://", "http://user:secret@host/", "http://host/?a=b", "::"} {
		_, err := httpcache.New(u, httpcache.Options{})
		if err == nil {
			t.Errorf("New(%q) accepted", u)
		} else if strings.Contains(err.Error(), "secret") {
			t.Errorf("New(%q): the error shows the password: %v", u, err)
		}
	}
	for _, c := range []struct{ token, basic, want, err string }{
		{"", "", "", ""},
		{"tok", "", "Bearer tok", ""},
		{"", "ci:pw", "Basic Y2k6cHc=", ""},
		{"", "nocolon", "", "user:password"},
		{"tok", "ci:pw", "", "set one"},
	} {
		t.Setenv(httpcache.EnvToken, c.token)
		t.Setenv(httpcache.EnvBasic, c.basic)
		got, err := httpcache.Auth()
		if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("Auth(token %q, basic %q) = %q, %v", c.token, c.basic, got, err)
		}
	}
}

// A server that wants a token refuses requests without it, serves them
// with it; a read-only server refuses writes.
func TestNginxTokenAndReadOnly(t *testing.T) {
	srv := nginxtest.Start(t, nginxtest.Options{Token: "s3cret"})
	anon, _ := httpcache.New(srv.URL, httpcache.Options{Timeout: 5 * time.Second})
	authed, _ := httpcache.New(srv.URL, httpcache.Options{Timeout: 5 * time.Second, Authorization: "Bearer s3cret"})
	b := []byte("blob")
	d := cache.Sum(b)
	ctx := context.Background()
	if err := anon.WriteBlob(ctx, d, 4, bytes.NewReader(b)); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("write without the token: %v, want 401", err)
	}
	if err := authed.WriteBlob(ctx, d, 4, bytes.NewReader(b)); err != nil {
		t.Errorf("write with the token: %v", err)
	}
	if n, err := authed.BlobSize(ctx, d); err != nil || n != 4 {
		t.Errorf("BlobSize with the token = %d, %v", n, err)
	}

	ro := nginxtest.Start(t, nginxtest.Options{ReadOnly: true})
	s, _ := httpcache.New(ro.URL, httpcache.Options{Timeout: 5 * time.Second})
	if err := s.WriteBlob(ctx, d, 4, bytes.NewReader(b)); err == nil || !strings.Contains(err.Error(), "403") {
		t.Errorf("write to a read-only server: %v, want 403", err)
	}
	if _, err := s.BlobSize(ctx, d); !errors.Is(err, cache.ErrMiss) {
		t.Errorf("read from a read-only server: %v, want a miss", err)
	}
}

// The bearer-token set-up of docs/cluster.md: anyone reads, only the
// token's holder writes.
func TestNginxWriteToken(t *testing.T) {
	srv := nginxtest.Start(t, nginxtest.Options{WriteToken: "w-token"})
	anon, _ := httpcache.New(srv.URL, httpcache.Options{Timeout: 5 * time.Second})
	writer, _ := httpcache.New(srv.URL, httpcache.Options{Timeout: 5 * time.Second, Authorization: "Bearer w-token"})
	wrong, _ := httpcache.New(srv.URL, httpcache.Options{Timeout: 5 * time.Second, Authorization: "Bearer w-token-not"})
	b := []byte("blob")
	d := cache.Sum(b)
	ctx := context.Background()
	for name, s := range map[string]*httpcache.Store{"no token": anon, "a wrong token": wrong} {
		if err := s.WriteBlob(ctx, d, 4, bytes.NewReader(b)); err == nil || !strings.Contains(err.Error(), "403") {
			t.Errorf("write with %s: %v, want 403", name, err)
		}
	}
	if err := writer.WriteBlob(ctx, d, 4, bytes.NewReader(b)); err != nil {
		t.Errorf("write with the token: %v", err)
	}
	var buf bytes.Buffer
	if _, err := anon.ReadBlob(ctx, d, &buf); err != nil || buf.String() != "blob" {
		t.Errorf("anonymous read = %q, %v", buf.String(), err)
	}
}

// badServer accepts connections on loopback and answers every request
// with reply (which may never come).
func badServer(t *testing.T, reply func(c net.Conn)) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for { // read the request head
					line, err := r.ReadString('\n')
					if err != nil || line == "\r\n" {
						break
					}
				}
				reply(c)
			}()
		}
	}()
	return "http://" + l.Addr().String()
}

// Every way a server can misbehave ends in an error within the timeout,
// never in a blob or a record.
func TestMisbehavingServers(t *testing.T) {
	blob := []byte("the real content")
	d := cache.Sum(blob)
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	cases := map[string]func(c net.Conn){
		"hangs before replying": func(c net.Conn) { <-hang },
		"dies mid-body": func(c net.Conn) {
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n%s", blob[:5])
		},
		"stalls mid-body": func(c net.Conn) {
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n%s", blob[:5])
			<-hang
		},
		"errors": func(c net.Conn) {
			fmt.Fprintf(c, "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n")
		},
		"serves other bytes": func(c net.Conn) {
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\nthe fake content", len(blob))
		},
	}
	for name, reply := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, err := httpcache.New(badServer(t, reply), httpcache.Options{Timeout: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			var buf bytes.Buffer
			if _, err := s.ReadBlob(context.Background(), d, &buf); err == nil || errors.Is(err, cache.ErrMiss) {
				t.Errorf("ReadBlob: %v, want an error", err)
			}
			if rec, err := s.ReadAction(context.Background(), d); err == nil || rec != nil {
				t.Errorf("ReadAction = %v, %v; want an error", rec, err)
			}
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("two requests took %s with a 300ms timeout", took)
			}
		})
	}
}
