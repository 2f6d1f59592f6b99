// Package nginxtest starts a real nginx on loopback as a Bazel-style HTTP
// remote cache (WebDAV PUT into a plain directory), with its own config,
// data and logs in a test's temp dir, and stops it when the test ends.
//
// nginx is Debian's nginx-core (scripts/deps.sh installs it). A test
// skips only when nginx is absent and cannot be installed here; when apt
// could install it, the test fails and says how.
package nginxtest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"text/template"
	"time"
)

// Options shape the server.
type Options struct {
	// Token, when set, is required as "Authorization: Bearer <Token>";
	// other requests get 401.
	Token string
	// ReadOnly refuses every method but GET and HEAD (403), the set-up
	// docs/cluster.md recommends for untrusted clients.
	ReadOnly bool
}

// Server is a running nginx.
type Server struct {
	URL       string // http://127.0.0.1:PORT
	Root      string // the data directory: Root/cas/<hex>, Root/ac/<hex>
	AccessLog string
	cmd       *exec.Cmd
}

const confTemplate = `daemon off;
master_process off;
worker_processes 1;
{{if .Root}}user root root;{{end}}
pid {{.Dir}}/nginx.pid;
error_log {{.Dir}}/error.log warn;
events { worker_connections 256; }
http {
	access_log {{.Dir}}/access.log;
	client_body_temp_path {{.Dir}}/tmp/body;
	proxy_temp_path {{.Dir}}/tmp/proxy;
	fastcgi_temp_path {{.Dir}}/tmp/fastcgi;
	uwsgi_temp_path {{.Dir}}/tmp/uwsgi;
	scgi_temp_path {{.Dir}}/tmp/scgi;
	client_max_body_size 0;
	server {
		listen 127.0.0.1:{{.Port}};
		root {{.Data}};
		location / {
			{{if .Token}}if ($http_authorization != "Bearer {{.Token}}") { return 401; }{{end}}
			{{if .ReadOnly}}limit_except GET HEAD { deny all; }{{end}}
			dav_methods PUT;
			create_full_put_path on;
			dav_access user:rw group:r all:r;
		}
	}
}
`

// Binary finds nginx, or skips t (absent, not installable) or fails it
// (absent, installable: the machine is not set up).
func Binary(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"nginx", "/usr/sbin/nginx"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	out, err := exec.Command("apt-cache", "policy", "nginx-core").Output()
	if err == nil && strings.Contains(string(out), "Candidate:") && !strings.Contains(string(out), "Candidate: (none)") {
		t.Fatalf("nginx is not installed but apt can install it: run scripts/deps.sh (make test does), or apt-get install nginx-core")
	}
	t.Skip("nginx is not installed and apt cannot install nginx-core here; skipping the remote-cache tests against nginx")
	return ""
}

// Start runs nginx until t ends.
func Start(t testing.TB, opt Options) *Server {
	t.Helper()
	bin := Binary(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	for _, d := range []string{data, filepath.Join(dir, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "nginx.conf")
	f, err := os.Create(conf)
	if err != nil {
		t.Fatal(err)
	}
	err = template.Must(template.New("conf").Parse(confTemplate)).Execute(f, map[string]any{
		"Dir": dir, "Data": data, "Port": port, "Token": opt.Token, "ReadOnly": opt.ReadOnly, "Root": os.Geteuid() == 0,
	})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", conf, "-e", filepath.Join(dir, "error.log"))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start nginx: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	s := &Server{URL: fmt.Sprintf("http://127.0.0.1:%d", port), Root: data, AccessLog: filepath.Join(dir, "access.log"), cmd: cmd}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			return s
		}
		select {
		case err := <-exited:
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("nginx exited at start (%v): %s", err, log)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx did not listen on port %d within 20s", port)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Requests returns the method and path of every request in the access log
// so far ("PUT /cas/ab…"), with the status ("PUT /cas/ab… 201").
func (s *Server) Requests(t testing.TB) []string {
	t.Helper()
	f, err := os.Open(s.AccessLog)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// combined format: addr - user [time] "METHOD PATH PROTO" STATUS SIZE ...
		line := sc.Text()
		i := strings.IndexByte(line, '"')
		j := strings.Index(line[i+1:], `"`)
		if i < 0 || j < 0 {
			continue
		}
		req := strings.Fields(line[i+1 : i+1+j])
		rest := strings.Fields(line[i+2+j:])
		if len(req) >= 2 && len(rest) >= 1 {
			out = append(out, req[0]+" "+req[1]+" "+rest[0])
		}
	}
	return out
}

// BlobPath is where the server keeps blob hex (to damage it behind the
// server's back).
func (s *Server) BlobPath(hex string) string { return filepath.Join(s.Root, "cas", hex) }

// ActionPath is where the server keeps action record hex.
func (s *Server) ActionPath(hex string) string { return filepath.Join(s.Root, "ac", hex) }
