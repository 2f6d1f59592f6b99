package cache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func open(t *testing.T) *Cache {
	t.Helper()
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestBlobRoundTripAndCorruption(t *testing.T) {
	c := open(t)
	d, err := c.PutBytes([]byte("hello"))
	if err != nil {
		t.Fatal(err)
	}
	if d != Sum([]byte("hello")) || !c.Has(d, 5) || c.Has(d, 4) {
		t.Fatalf("digest/size check wrong")
	}
	b, err := c.ReadBytes(d)
	if err != nil || string(b) != "hello" {
		t.Fatalf("ReadBytes = %q, %v", b, err)
	}
	os.WriteFile(c.blobPath(d), []byte("jello"), 0o644)
	_, err = c.ReadBytes(d)
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Digest != d {
		t.Fatalf("corrupt blob: err = %v", err)
	}
	if _, err := os.Stat(c.blobPath(d)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("corrupt blob was not removed")
	}
	if _, err := c.ReadBytes(d); !errors.Is(err, ErrMiss) {
		t.Errorf("after removal: %v, want ErrMiss", err)
	}
	if _, err := c.ReadBytes("../../etc/passwd"); err == nil {
		t.Errorf("an invalid digest must be refused")
	}
}

func TestActionRecordMissCases(t *testing.T) {
	c := open(t)
	key := Sum([]byte("k"))
	if _, err := c.GetAction(key); !errors.Is(err, ErrMiss) {
		t.Fatalf("empty cache: %v", err)
	}
	if err := c.PutAction(&ActionRecord{Key: key, Step: "s", OutputDigest: Sum(nil)}); err != nil {
		t.Fatal(err)
	}
	if rec, err := c.GetAction(key); err != nil || rec.Step != "s" {
		t.Fatalf("GetAction = %+v, %v", rec, err)
	}
	for name, content := range map[string]string{"truncated": `{"key":"`, "other key": fmt.Sprintf(`{"key":%q}`, Sum([]byte("other")))} {
		os.WriteFile(c.actionPath(key), []byte(content), 0o644)
		if _, err := c.GetAction(key); !errors.Is(err, ErrMiss) {
			t.Errorf("%s record: %v, want miss", name, err)
		}
	}
}

func TestTreeRoundTrip(t *testing.T) {
	c := open(t)
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "sub", ".git"), 0o755)
	os.WriteFile(filepath.Join(src, "a.txt"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(src, "sub", "run.sh"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(src, "sub", ".git", "HEAD"), []byte("x"), 0o644)
	os.Symlink("a.txt", filepath.Join(src, "link"))
	skipGit := func(rel string, d fs.DirEntry) bool { return d.IsDir() && d.Name() == ".git" }
	d, tree, err := c.PutTree(src, skipGit)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Entries) != 3 {
		t.Fatalf("entries = %+v", tree.Entries)
	}
	if h, _ := HashTree(src, skipGit); h != d {
		t.Errorf("HashTree %s != PutTree %s", h, d)
	}
	dst := t.TempDir()
	if err := c.Materialize(d, dst); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dst, "sub", "run.sh")); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("exec bit lost: %v %v", fi, err)
	}
	if target, err := os.Readlink(filepath.Join(dst, "link")); err != nil || target != "a.txt" {
		t.Errorf("symlink = %q, %v", target, err)
	}
	if b, err := c.ReadTreeFile(d, "a.txt"); err != nil || string(b) != "a" {
		t.Errorf("ReadTreeFile = %q, %v", b, err)
	}
	if h2, _ := HashTree(dst, skipGit); h2 != d {
		t.Errorf("materialized tree hashes differently")
	}
}

func TestTreeRejectsEscapingPaths(t *testing.T) {
	c := open(t)
	for _, p := range []string{"../x", "/etc/passwd", "a/../../x", `a\b`, "C:x", ""} {
		blob, _ := c.PutBytes([]byte("x"))
		tr := Tree{Entries: []TreeEntry{{Path: p, Mode: 0o644, Digest: blob, Size: 1}}}
		d, _ := c.PutBytes(tr.Encode())
		if err := c.Materialize(d, t.TempDir()); err == nil {
			t.Errorf("path %q was materialized", p)
		}
	}
}

// A tree whose entry lies below one of its links would write through the
// link, wherever it points: refused before anything is written.
func TestTreeRejectsEntriesBelowALink(t *testing.T) {
	c := open(t)
	outside := t.TempDir()
	target, _ := c.PutBytes([]byte(outside))
	blob, _ := c.PutBytes([]byte("x"))
	tr := Tree{Entries: []TreeEntry{
		{Path: "a/link", Mode: fs.ModeSymlink | 0o777, Digest: target, Size: int64(len(outside))},
		{Path: "a/link/evil", Mode: 0o644, Digest: blob, Size: 1},
	}}
	d, _ := c.PutBytes(tr.Encode())
	err := c.Materialize(d, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "below the symbolic link") {
		t.Errorf("Materialize: %v", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "evil")); err == nil {
		t.Errorf("a file was written through the link")
	}
}

func TestConcurrentWritersAgree(t *testing.T) {
	c := open(t)
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			d, err := c.PutBytes([]byte("same content"))
			if err != nil {
				t.Error(err)
			}
			if err := c.PutAction(&ActionRecord{Key: Sum([]byte("k")), Step: "s", Results: []Output{{Name: "o", Kind: KindBlob, Digest: d, Size: 12}}}); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	if _, err := c.GetAction(Sum([]byte("k"))); err != nil {
		t.Fatal(err)
	}
	if tmps, _ := os.ReadDir(filepath.Join(c.Dir(), "tmp")); len(tmps) != 0 {
		t.Errorf("temp files left behind: %d", len(tmps))
	}
}

func putAction(t *testing.T, c *Cache, name string, content string, used time.Time) Digest {
	t.Helper()
	d, err := c.PutBytes([]byte(content))
	if err != nil {
		t.Fatal(err)
	}
	key := Sum([]byte(name))
	if err := c.PutAction(&ActionRecord{Key: key, Step: name, Results: []Output{{Name: "o", Kind: KindBlob, Digest: d, Size: int64(len(content))}}}); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(c.actionPath(key), used, used)
	return key
}

func TestTrimByAgeAndSize(t *testing.T) {
	c := open(t)
	now := time.Now()
	old := putAction(t, c, "old", "old content", now.Add(-48*time.Hour))
	mid := putAction(t, c, "mid", string(make([]byte, 1000)), now.Add(-time.Hour))
	fresh := putAction(t, c, "fresh", "fresh", now)
	orphan, _ := c.PutBytes([]byte("nobody refers to me"))

	res, err := c.Trim(TrimOptions{MaxAge: 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if res.ActionsRemoved != 1 || c.Has(orphan, 19) || c.Has(Sum([]byte("old content")), 11) {
		t.Errorf("age trim: %+v", res)
	}
	if _, err := c.GetAction(old); !errors.Is(err, ErrMiss) {
		t.Errorf("old record kept")
	}
	// A size bound that fits only the freshest entry drops the 1000-byte one.
	if _, err := c.Trim(TrimOptions{MaxSize: 600}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetAction(mid); !errors.Is(err, ErrMiss) {
		t.Errorf("size trim kept the least recently used record")
	}
	if _, err := c.GetAction(fresh); err != nil {
		t.Errorf("size trim dropped the newest record: %v", err)
	}
	if !c.Has(Sum([]byte("fresh")), 5) {
		t.Errorf("a reachable blob was removed")
	}
}

// Blobs stored within the grace period survive a trim although no record
// reaches them yet (an evaluation's patches, between storing and use);
// storing a blob again renews it.
func TestTrimGrace(t *testing.T) {
	c := open(t)
	young, _ := c.PutBytes([]byte("a patch stored a moment ago"))
	old, _ := c.PutBytes([]byte("an orphan from yesterday"))
	again, _ := c.PutBytes([]byte("a patch evaluated yesterday and again now"))
	yesterday := time.Now().Add(-24 * time.Hour)
	os.Chtimes(c.blobPath(old), yesterday, yesterday)
	os.Chtimes(c.blobPath(again), yesterday, yesterday)
	c.PutBytes([]byte("a patch evaluated yesterday and again now"))
	if _, err := c.Trim(TrimOptions{Grace: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if !c.Has(young, 27) || !c.Has(again, 41) {
		t.Errorf("a blob within the grace period was removed")
	}
	if c.Has(old, 24) {
		t.Errorf("an unreachable blob older than the grace period was kept")
	}
}

func TestVerifyRemovesCorruptBlobsAndBrokenRecords(t *testing.T) {
	c := open(t)
	good := putAction(t, c, "good", "good", time.Now())
	bad := putAction(t, c, "bad", "bad!", time.Now())
	os.WriteFile(c.blobPath(Sum([]byte("bad!"))), []byte("BAD!"), 0o644)
	res, err := c.Verify()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Corrupt) != 1 || len(res.Broken) != 1 || res.Broken[0] != bad {
		t.Fatalf("verify = %+v", res)
	}
	if _, err := c.GetAction(good); err != nil {
		t.Errorf("good record removed: %v", err)
	}
	st, _ := c.Stats()
	if st.Actions != 1 || st.Blobs != 1 {
		t.Errorf("stats after verify = %+v", st)
	}
}
