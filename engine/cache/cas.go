package cache

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// ErrMiss is returned when an entry is absent (or unusable, which is the same
// thing to a caller).
var ErrMiss = errors.New("cache miss")

// Cache is a local cache directory. Its methods are safe for concurrent use by
// goroutines and by several processes sharing the directory.
type Cache struct {
	dir    string
	lock   *flock.Flock
	now    func() time.Time
	remote *remote // nil: local only (AttachRemote)
}

// Open creates (if needed) and opens the cache at dir.
func Open(dir string) (*Cache, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for _, sub := range []string{"cas", "ac", "tmp"} {
		if err := os.MkdirAll(filepath.Join(abs, sub), 0o755); err != nil {
			return nil, fmt.Errorf("open cache: %w", err)
		}
	}
	return &Cache{dir: abs, lock: flock.New(filepath.Join(abs, "lock")), now: time.Now}, nil
}

// Dir is the cache's root directory.
func (c *Cache) Dir() string { return c.dir }

// Subdir returns (creating it) a directory under the cache for state that
// lives outside the content-addressed results: git mirrors, tool caches,
// executor state. Nothing in it ever enters a key.
func (c *Cache) Subdir(parts ...string) (string, error) {
	p := filepath.Join(append([]string{c.dir}, parts...)...)
	return p, os.MkdirAll(p, 0o755)
}

// SharedLock is held by every build for its duration; gc takes the lock
// exclusively so it never deletes what a running build is about to use.
func (c *Cache) SharedLock() (unlock func(), err error) {
	if err := c.lock.RLock(); err != nil {
		return nil, fmt.Errorf("lock cache: %w", err)
	}
	return func() { c.lock.Unlock() }, nil
}

func (c *Cache) blobPath(d Digest) string {
	return filepath.Join(c.dir, "cas", string(d[:2]), string(d))
}

// PutBytes stores b and returns its digest.
func (c *Cache) PutBytes(b []byte) (Digest, error) {
	d := Sum(b)
	if c.hasSize(d, int64(len(b))) {
		c.renewBlob(d)
		return d, nil
	}
	_, err := writeAtomic(filepath.Join(c.dir, "tmp"), c.blobPath(d), bytes.NewReader(b), false)
	return d, err
}

// PutReader streams r into the store and returns its digest and size.
func (c *Cache) PutReader(r io.Reader) (Digest, int64, error) {
	tmp, d, n, err := c.spool("in-*", func(w io.Writer) error { _, err := io.Copy(w, r); return err })
	defer os.Remove(tmp)
	if err != nil {
		return "", 0, err
	}
	if c.hasSize(d, n) {
		c.renewBlob(d)
		return d, n, nil
	}
	if err := c.adopt(tmp, d); err != nil {
		return "", 0, err
	}
	return d, n, nil
}

// spool writes what fill produces into a new temp file under tmp/, synced
// and closed (Windows refuses to rename an open file), and returns its path
// with the digest and size of the bytes. The caller checks them, then adopts
// the file as a blob or removes it; the path is returned even on error, so
// a deferred os.Remove always cleans up.
func (c *Cache) spool(pattern string, fill func(io.Writer) error) (tmp string, d Digest, n int64, err error) {
	f, err := os.CreateTemp(filepath.Join(c.dir, "tmp"), pattern)
	if err != nil {
		return "", "", 0, err
	}
	hw := newHashingWriter(f)
	err = fill(hw)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return f.Name(), hw.digest(), hw.n, err
}

// adopt renames a spooled file into place as blob d.
func (c *Cache) adopt(tmp string, d Digest) error {
	dst := c.blobPath(d)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// PutFile stores the content of the file at path.
func (c *Cache) PutFile(path string) (Digest, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	return c.PutReader(f)
}

// renewBlob marks blob d as stored now, so Trim's grace period covers a
// blob stored again (a patch evaluated before) as well as a new one. A blob
// renewed in the last few minutes is left alone: no write per hit.
func (c *Cache) renewBlob(d Digest) {
	p := c.blobPath(d)
	now := c.now()
	if fi, err := os.Stat(p); err == nil && now.Sub(fi.ModTime()) > 5*time.Minute {
		os.Chtimes(p, now, now)
	}
}

// hasSize reports whether blob d is present with the given size.
func (c *Cache) hasSize(d Digest, size int64) bool {
	fi, err := os.Stat(c.blobPath(d))
	return err == nil && fi.Mode().IsRegular() && fi.Size() == size
}

// Has reports whether blob d is present with the given size. It does not
// rehash; readers do.
func (c *Cache) Has(d Digest, size int64) bool { return d.Valid() && c.hasSize(d, size) }

// ReadBytes returns the content of blob d after checking its digest. A blob
// that fails the check is removed and reported as *CorruptError. A blob
// missing here is pulled from an attached remote first.
func (c *Cache) ReadBytes(d Digest) ([]byte, error) {
	b, err := c.readBytesLocal(d)
	if errors.Is(err, ErrMiss) && c.remote != nil {
		if c.PullBlob(context.Background(), d, -1) == nil {
			return c.readBytesLocal(d)
		}
	}
	return b, err
}

func (c *Cache) readBytesLocal(d Digest) ([]byte, error) {
	if !d.Valid() {
		return nil, fmt.Errorf("read blob: invalid digest %q", d)
	}
	b, err := os.ReadFile(c.blobPath(d))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrMiss
	}
	if err != nil {
		return nil, err
	}
	if got := Sum(b); got != d {
		return nil, c.corrupt(d, "content hashes to "+got.Short())
	}
	return b, nil
}

// CopyTo writes blob d to w, verifying its digest on the way. When the check
// fails w has received bad bytes: callers write to scratch space only. A
// blob missing here is pulled from an attached remote first.
func (c *Cache) CopyTo(w io.Writer, d Digest) (int64, error) {
	if !d.Valid() {
		return 0, fmt.Errorf("read blob: invalid digest %q", d)
	}
	f, err := os.Open(c.blobPath(d))
	if errors.Is(err, fs.ErrNotExist) && c.remote != nil && c.PullBlob(context.Background(), d, -1) == nil {
		f, err = os.Open(c.blobPath(d))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return 0, ErrMiss
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	hr := newHashingReader(f)
	n, err := io.Copy(w, hr)
	if err != nil {
		return n, err
	}
	if got := hr.digest(); got != d {
		return n, c.corrupt(d, "content hashes to "+got.Short())
	}
	return n, nil
}

func (c *Cache) corrupt(d Digest, reason string) error {
	os.Remove(c.blobPath(d))
	return &CorruptError{Digest: d, Reason: reason}
}

// VerifyBlob rehashes blob d; a bad blob is removed and reported.
func (c *Cache) VerifyBlob(d Digest, size int64) error {
	n, err := c.CopyTo(io.Discard, d)
	if err != nil {
		return err
	}
	if size >= 0 && n != size {
		return c.corrupt(d, fmt.Sprintf("size %d, want %d", n, size))
	}
	return nil
}
