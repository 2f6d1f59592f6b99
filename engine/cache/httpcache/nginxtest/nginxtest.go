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
	"errors"
	"fmt"
	"net"
	"net/http"
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
	// WriteToken lets anyone read and only "Bearer <WriteToken>" write
	// (403 otherwise): the bearer-token configuration of docs/cluster.md.
	WriteToken string
}

// Server is a running nginx.
type Server struct {
	URL       string // http://127.0.0.1:PORT
	Root      string // the data directory: Root/cas/<hex>, Root/ac/<hex>
	AccessLog string
	cmd       *exec.Cmd
	exited    chan error
	stopped   bool
	syncs     int
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
	{{if .WriteToken}}map "$request_method:$http_authorization" $osbench_cache_refused {
		default 1;
		"~^(GET|HEAD):" 0;
		"PUT:Bearer {{.WriteToken}}" 0;
	}{{end}}
	server {
		listen 127.0.0.1:{{.Port}};
		root {{.Data}};
		location / {
			{{if .Token}}if ($http_authorization != "Bearer {{.Token}}") { return 401; }{{end}}
			{{if .ReadOnly}}limit_except GET HEAD { deny all; }{{end}}
			{{if .WriteToken}}if ($osbench_cache_refused) { return 403; }{{end}}
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
	bin, installable := find()
	switch {
	case bin != "":
		return bin
	case installable:
		t.Fatalf("nginx is not installed but apt can install it: run scripts/deps.sh (make test does), or apt-get install nginx-core")
	}
	t.Skip("nginx is not installed and apt cannot install nginx-core here; skipping the remote-cache tests against nginx")
	return ""
}

// find returns nginx's path, or whether apt could install it.
func find() (bin string, installable bool) {
	for _, p := range []string{"nginx", "/usr/sbin/nginx"} {
		if path, err := exec.LookPath(p); err == nil {
			return path, false
		}
	}
	out, err := exec.Command("apt-cache", "policy", "nginx-core").Output()
	return "", err == nil && strings.Contains(string(out), "Candidate:") && !strings.Contains(string(out), "Candidate: (none)")
}

// Installed reports whether nginx is installed, and if not whether apt
// could install it (then a test must fail, not skip).
func Installed() (ok, installable bool) {
	bin, installable := find()
	return bin != "", installable
}

// ErrAbsent is Launch's error when nginx is not installed.
var ErrAbsent = errors.New("nginx is not installed (scripts/deps.sh installs nginx-core)")

// Start runs nginx until t ends.
func Start(t testing.TB, opt Options) *Server {
	t.Helper()
	Binary(t)
	s, err := Launch(t.TempDir(), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

// Launch runs nginx with its config, data and logs under dir until Stop.
func Launch(dir string, opt Options) (*Server, error) {
	bin, _ := find()
	if bin == "" {
		return nil, ErrAbsent
	}
	data := filepath.Join(dir, "data")
	for _, d := range []string{data, filepath.Join(dir, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	conf := filepath.Join(dir, "nginx.conf")
	f, err := os.Create(conf)
	if err != nil {
		return nil, err
	}
	err = template.Must(template.New("conf").Parse(confTemplate)).Execute(f, map[string]any{
		"Dir": dir, "Data": data, "Port": port, "Token": opt.Token, "ReadOnly": opt.ReadOnly, "WriteToken": opt.WriteToken, "Root": os.Geteuid() == 0,
	})
	f.Close()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-p", dir, "-c", conf, "-e", filepath.Join(dir, "error.log"))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start nginx: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	s := &Server{URL: fmt.Sprintf("http://127.0.0.1:%d", port), Root: data, AccessLog: filepath.Join(dir, "access.log"), cmd: cmd, exited: exited}
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			return s, nil
		}
		select {
		case err := <-exited:
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			return nil, fmt.Errorf("nginx exited at start (%v): %s", err, log)
		default:
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("nginx did not listen on port %d within 20s", port)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop ends nginx (quickly: SIGINT, then SIGKILL after 10s).
func (s *Server) Stop() {
	if s.stopped {
		return
	}
	s.stopped = true
	s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
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

// Requests returns the method, path and status of every request in the
// access log so far ("PUT /cas/ab… 201").
func (s *Server) Requests(t testing.TB) []string {
	t.Helper()
	reqs, err := s.ReadRequests()
	if err != nil {
		t.Fatal(err)
	}
	return reqs
}

// ReadRequests is Requests for callers without a testing.TB. nginx logs a
// request just after answering it, so it first sends a request of its own
// and waits for its line: nginx's one process has then logged every request
// answered before.
func (s *Server) ReadRequests() ([]string, error) {
	s.syncs++
	marker := fmt.Sprintf("/osbench-log-sync-%d", s.syncs)
	if resp, err := http.Head(s.URL + marker); err == nil {
		resp.Body.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		reqs, err := s.readLog()
		if err != nil {
			return nil, err
		}
		for i, r := range reqs {
			if strings.HasPrefix(r, "HEAD "+marker+" ") {
				return dropSyncs(reqs[:i]), nil
			}
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("nginx did not log %s within 5s", marker)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func dropSyncs(reqs []string) []string {
	out := reqs[:0:0]
	for _, r := range reqs {
		if !strings.Contains(r, " /osbench-log-sync-") {
			out = append(out, r)
		}
	}
	return out
}

func (s *Server) readLog() ([]string, error) {
	f, err := os.Open(s.AccessLog)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
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
	return out, sc.Err()
}

// BlobPath is where the server keeps blob hex (to damage it behind the
// server's back).
func (s *Server) BlobPath(hex string) string { return filepath.Join(s.Root, "cas", hex) }

// ActionPath is where the server keeps action record hex.
func (s *Server) ActionPath(hex string) string { return filepath.Join(s.Root, "ac", hex) }
