package main

// Script commands for the remote-cache scripts: a real nginx serving the
// cache on loopback, a server that never answers, and checks on what the
// server was asked and holds.

import (
	"encoding/json"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/engine/cache/httpcache/nginxtest"
)

var (
	remoteMu sync.Mutex
	servers  = map[*testscript.TestScript]*remoteState{}
)

type remoteState struct {
	srv  *nginxtest.Server
	mark int // requests before the last remote-mark
}

func remoteOf(ts *testscript.TestScript) *remoteState {
	remoteMu.Lock()
	defer remoteMu.Unlock()
	st := servers[ts]
	if st == nil {
		ts.Fatalf("no nginx running: call nginx first")
	}
	return st
}

var remoteCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	// nginx [TOKEN]: start nginx as a remote cache for this script
	// ($NGINX is its URL), requiring "Bearer TOKEN" when given.
	"nginx": func(ts *testscript.TestScript, neg bool, args []string) {
		opt := nginxtest.Options{}
		if len(args) == 1 {
			opt.Token = args[0]
		}
		srv, err := nginxtest.Launch(ts.MkAbs("nginx"), opt)
		if err == nginxtest.ErrAbsent {
			ts.Fatalf("%v; apt can install it: run scripts/deps.sh (make test does)", err)
		}
		ts.Check(err)
		ts.Defer(srv.Stop)
		remoteMu.Lock()
		servers[ts] = &remoteState{srv: srv}
		remoteMu.Unlock()
		ts.Defer(func() { remoteMu.Lock(); delete(servers, ts); remoteMu.Unlock() })
		ts.Setenv("NGINX", srv.URL)
	},
	// remote-mark: later remote-writes look at requests after this point.
	"remote-mark": func(ts *testscript.TestScript, neg bool, args []string) {
		st := remoteOf(ts)
		reqs, err := st.srv.ReadRequests()
		ts.Check(err)
		st.mark = len(reqs)
	},
	// [!] remote-writes: the server was asked to write (PUT, DELETE, …)
	// since remote-mark; negated: it was asked only GET and HEAD.
	"remote-writes": func(ts *testscript.TestScript, neg bool, args []string) {
		st := remoteOf(ts)
		reqs, err := st.srv.ReadRequests()
		ts.Check(err)
		var writes []string
		for _, r := range reqs[st.mark:] {
			if !strings.HasPrefix(r, "GET ") && !strings.HasPrefix(r, "HEAD ") {
				writes = append(writes, r)
			}
		}
		ts.Logf("%d requests since the mark, %d writes", len(reqs)-st.mark, len(writes))
		if neg && len(writes) > 0 {
			ts.Fatalf("the server was asked to write: %v", writes)
		}
		if !neg && len(writes) == 0 {
			ts.Fatalf("the server was asked to write nothing")
		}
	},
	// remote-damage STEP: overwrite, on the server, the first result blob
	// of STEP's record with other bytes of the same size.
	"remote-damage": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 {
			ts.Fatalf("usage: remote-damage STEP")
		}
		st := remoteOf(ts)
		var found bool
		filepath.WalkDir(filepath.Join(st.srv.Root), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Base(filepath.Dir(p)) != "ac" || found {
				return err
			}
			var rec cache.ActionRecord
			b, _ := os.ReadFile(p)
			if json.Unmarshal(b, &rec) != nil || rec.Step != args[0] || len(rec.Results) == 0 {
				return nil
			}
			blob := filepath.Join(filepath.Dir(filepath.Dir(p)), "cas", string(rec.Results[0].Digest))
			good, err := os.ReadFile(blob)
			ts.Check(err)
			bad := []byte(strings.Repeat("X", len(good)))
			ts.Check(os.WriteFile(blob, bad, 0o644))
			ts.Logf("damaged %s (result %s of %s)", rec.Results[0].Digest.Short(), rec.Results[0].Name, rec.Step)
			found = true
			return nil
		})
		if !found {
			ts.Fatalf("the server holds no record of %s", args[0])
		}
	},
	// hang-server: $HANG is a server that accepts connections and never
	// answers.
	"hang-server": func(ts *testscript.TestScript, neg bool, args []string) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		ts.Check(err)
		var mu sync.Mutex
		var conns []net.Conn
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
			}
		}()
		ts.Defer(func() {
			l.Close()
			mu.Lock()
			for _, c := range conns {
				c.Close()
			}
			mu.Unlock()
		})
		ts.Setenv("HANG", "http://"+l.Addr().String())
	},
	// fresh-cache DIR: an empty cache (no records, no blobs) sharing only
	// the corpus's tool caches (downloaded toolchains, GOCACHE), as on a
	// machine whose toolchains are installed but which never built.
	"fresh-cache": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 {
			ts.Fatalf("usage: fresh-cache DIR")
		}
		dir := ts.MkAbs(args[0])
		ts.Check(os.MkdirAll(dir, 0o755))
		ts.Check(os.Symlink(filepath.Join(corpusCache, "state"), filepath.Join(dir, "state")))
	},
	// nosecret DIR TEXT: no file under DIR contains TEXT.
	"nosecret": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: nosecret DIR TEXT")
		}
		n := 0
		ts.Check(filepath.WalkDir(ts.MkAbs(args[0]), func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			n++
			if strings.Contains(string(b), args[1]) {
				ts.Fatalf("%s holds the secret", p)
			}
			return nil
		}))
		ts.Logf("%d files checked", n)
	},
}
