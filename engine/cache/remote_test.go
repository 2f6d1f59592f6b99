package cache_test

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/engine/cache/httpcache"
	"github.com/osbench/osbench/engine/cache/httpcache/nginxtest"
)

// tier opens an empty local cache with url behind it; warnings are
// collected.
type tier struct {
	*cache.Cache
	mu    sync.Mutex
	warns []string
}

func openTier(t *testing.T, url string, readOnly bool, timeout time.Duration) *tier {
	t.Helper()
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := httpcache.New(url, httpcache.Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	tr := &tier{Cache: c}
	c.AttachRemote(s, cache.RemoteOptions{Name: s.String(), ReadOnly: readOnly, Warn: func(m string) {
		tr.mu.Lock()
		tr.warns = append(tr.warns, m)
		tr.mu.Unlock()
	}})
	return tr
}

// build stores what a step would: a tree result, a blob result and a log.
func build(t *testing.T, c *tier, name string) *cache.ActionRecord {
	t.Helper()
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "sub"), 0o755)
	os.WriteFile(filepath.Join(src, "a.txt"), []byte("a of "+name), 0o644)
	os.WriteFile(filepath.Join(src, "sub", "run.sh"), []byte("#!/bin/sh\n"), 0o755)
	os.Symlink("a.txt", filepath.Join(src, "link"))
	td, tree, err := c.PutTree(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := []byte(`{"pass":1}` + name)
	bd, _ := c.PutBytes(res)
	ld, _ := c.PutBytes([]byte("log of " + name))
	rec := &cache.ActionRecord{Key: cache.Sum([]byte(name)), Step: name,
		Results: []cache.Output{
			{Name: "results", Kind: cache.KindBlob, Digest: bd, Size: int64(len(res))},
			{Name: "tree", Kind: cache.KindTree, Digest: td, Size: int64(len(tree.Encode()))},
		},
		Side: []cache.Output{{Name: "log", Kind: cache.KindBlob, Digest: ld, Size: int64(len("log of " + name))}}}
	if err := c.PutAction(rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

func count(reqs []string, method string) int {
	n := 0
	for _, r := range reqs {
		if strings.HasPrefix(r, method+" ") {
			n++
		}
	}
	return n
}

// A result stored on one machine is a hit on a fresh one: record, blobs,
// tree members and log all pulled and verified; a read-only run writes
// nothing to the server.
func TestRemoteRoundTripAndReadOnly(t *testing.T) {
	srv := nginxtest.Start(t, nginxtest.Options{})
	a := openTier(t, srv.URL+"/ci", false, 5*time.Second)
	rec := build(t, a, "step")
	puts := count(srv.Requests(t), "PUT")
	if puts != 6 { // results, tree manifest, 3 members, log... and the record
		t.Logf("requests: %v", srv.Requests(t))
	}
	if puts < 6 {
		t.Fatalf("%d PUTs, want every blob and the record", puts)
	}

	b := openTier(t, srv.URL+"/ci", true, 5*time.Second)
	before := len(srv.Requests(t))
	got, err := b.GetAction(rec.Key)
	if err != nil {
		t.Fatalf("fresh cache: %v (warnings %v)", err, b.warns)
	}
	if got.OutputDigest != rec.OutputDigest || len(got.Results) != 2 {
		t.Errorf("pulled record = %+v", got)
	}
	dst := t.TempDir()
	if err := b.Materialize(rec.Results[1].Digest, dst); err != nil {
		t.Fatal(err)
	}
	if s, _ := os.ReadFile(filepath.Join(dst, "a.txt")); string(s) != "a of step" {
		t.Errorf("materialized a.txt = %q", s)
	}
	if !b.Has(rec.Side[0].Digest, rec.Side[0].Size) {
		t.Errorf("the log was not pulled")
	}
	// The read-only cache recomputes and stores something of its own:
	// nothing of it may reach the server.
	build(t, b, "untrusted step")
	after := srv.Requests(t)[before:]
	if n := count(after, "PUT"); n != 0 {
		t.Errorf("read-only cache wrote %d times: %v", n, after)
	}
	if len(b.warns) != 0 {
		t.Errorf("warnings: %v", b.warns)
	}
	// A second lookup is local: no request at all.
	before = len(srv.Requests(t))
	if _, err := b.GetAction(rec.Key); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests(t)) - before; n != 0 {
		t.Errorf("a local hit made %d requests", n)
	}
}

// A blob the server serves wrong is detected: the record is a miss (with
// one warning), nothing bad enters the local cache, and the recomputed
// result is uploaded again over the bad one.
func TestRemoteWrongBytesAreAMissAndGetRepaired(t *testing.T) {
	srv := nginxtest.Start(t, nginxtest.Options{})
	a := openTier(t, srv.URL, false, 5*time.Second)
	rec := build(t, a, "step")
	member := rec.Results[0].Digest
	os.WriteFile(srv.BlobPath(string(member)), []byte(`{"pass":9}step`), 0o644) // same size, other bytes

	b := openTier(t, srv.URL, false, 5*time.Second)
	if _, err := b.GetAction(rec.Key); !errors.Is(err, cache.ErrMiss) {
		t.Fatalf("record with a bad blob: %v, want a miss", err)
	}
	if len(b.warns) != 1 || !strings.Contains(b.warns[0], "corrupt") {
		t.Errorf("warnings = %q, want one about the corrupt blob", b.warns)
	}
	if b.Has(member, rec.Results[0].Size) {
		t.Errorf("the bad blob entered the local cache")
	}
	if !b.HasRemote() {
		t.Errorf("one bad blob turned the remote off")
	}
	build(t, b, "step") // recomputed locally: same outputs
	if got, _ := os.ReadFile(srv.BlobPath(string(member))); string(got) != `{"pass":1}step` {
		t.Errorf("server still holds %q after the recomputed result was pushed", got)
	}
	c := openTier(t, srv.URL, false, 5*time.Second)
	if _, err := c.GetAction(rec.Key); err != nil || len(c.warns) != 0 {
		t.Errorf("after repair: %v, warnings %v", err, c.warns)
	}
}

// A tree from the server is checked like a local one: an entry that would
// escape or lie below a link makes the record a miss.
func TestRemoteUnsafeTreeIsAMiss(t *testing.T) {
	srv := nginxtest.Start(t, nginxtest.Options{})
	a := openTier(t, srv.URL, false, 5*time.Second)
	for name, entries := range map[string][]cache.TreeEntry{
		"escaping": {{Path: "../evil", Mode: 0o644}},
		"below a link": {
			{Path: "l", Mode: fs.ModeSymlink | 0o777},
			{Path: "l/evil", Mode: 0o644},
		},
	} {
		blob, _ := a.PutBytes([]byte("/tmp"))
		for i := range entries {
			entries[i].Digest, entries[i].Size = blob, 4
		}
		tr := cache.Tree{Entries: entries}
		td := cache.Sum(tr.Encode())
		// Written straight to the server: the local cache would refuse it.
		os.MkdirAll(filepath.Dir(srv.BlobPath(string(td))), 0o755)
		os.WriteFile(srv.BlobPath(string(td)), tr.Encode(), 0o644)
		os.WriteFile(srv.BlobPath(string(blob)), []byte("/tmp"), 0o644)
		rec := &cache.ActionRecord{Key: cache.Sum([]byte(name)), Step: name,
			Results: []cache.Output{{Name: "tree", Kind: cache.KindTree, Digest: td, Size: int64(len(tr.Encode()))}}}
		s, _ := httpcache.New(srv.URL, httpcache.Options{})
		if err := s.WriteAction(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
		b := openTier(t, srv.URL, false, 5*time.Second)
		if _, err := b.GetAction(rec.Key); !errors.Is(err, cache.ErrMiss) {
			t.Errorf("%s tree: %v, want a miss", name, err)
		}
		if len(b.warns) != 1 {
			t.Errorf("%s tree: warnings %q, want one", name, b.warns)
		}
	}
}

// A failed record stays local.
func TestFailedRecordsAreNeverPushed(t *testing.T) {
	srv := nginxtest.Start(t, nginxtest.Options{})
	a := openTier(t, srv.URL, false, 5*time.Second)
	if err := a.PutAction(&cache.ActionRecord{Key: cache.Sum([]byte("f")), Step: "f", Failed: true, Error: "exit 1"}); err != nil {
		t.Fatal(err)
	}
	if reqs := srv.Requests(t); len(reqs) != 0 {
		t.Errorf("a failed record made requests: %v", reqs)
	}
}

// A server that hangs costs one timeout: the lookup is a miss within it,
// with one warning, and the remote is not asked again in this process.
func TestHangingRemoteDegradesToAMiss(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held open, never answered
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	}()
	b := openTier(t, "http://"+l.Addr().String(), false, 500*time.Millisecond)
	start := time.Now()
	for i := 0; i < 5; i++ {
		if _, err := b.GetAction(cache.Sum([]byte{byte(i)})); !errors.Is(err, cache.ErrMiss) {
			t.Fatalf("lookup %d: %v, want a miss", i, err)
		}
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("5 lookups took %s against a hanging server with a 500ms timeout", took)
	}
	if len(b.warns) != 1 || !strings.Contains(b.warns[0], "not used for the rest of this run") {
		t.Errorf("warnings = %q", b.warns)
	}
	// The local cache still works: a build goes on.
	if _, err := b.PutBytes([]byte("x")); err != nil {
		t.Fatal(err)
	}
}
