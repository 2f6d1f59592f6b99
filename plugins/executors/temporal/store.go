package temporal

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"path/filepath"

	"github.com/osbench/osbench/engine/cache"
)

// Store is where artifacts travel between a client and its workers:
// Temporal carries digests only, the bytes go through a store both sides
// reach. It is the narrow part of a cache that transfer needs, so a remote
// cache (Bazel's HTTP protocol) can stand behind it as well as a directory.
type Store interface {
	// Has reports whether blob d of size bytes is stored.
	Has(ctx context.Context, d cache.Digest, size int64) (bool, error)
	// Get opens blob d; a missing blob is cache.ErrMiss. Readers verify
	// the digest themselves (pull does).
	Get(ctx context.Context, d cache.Digest) (io.ReadCloser, error)
	// Put stores size bytes read from r as blob d.
	Put(ctx context.Context, d cache.Digest, size int64, r io.Reader) error
	// GetAction returns the record of key, cache.ErrMiss when there is none.
	GetAction(ctx context.Context, key cache.Digest) (*cache.ActionRecord, error)
	// PutAction records rec under rec.Key.
	PutAction(ctx context.Context, rec *cache.ActionRecord) error
}

// OpenStore opens the store an URL names. file:///abs/dir is a cache
// directory that the client and the workers share (one machine, or a
// network file system); "" means none: the workers use the client's own
// cache directory.
func OpenStore(raw string) (Store, error) {
	if raw == "" {
		return nil, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("store %q: %v", raw, err)
	}
	switch u.Scheme {
	case "file":
		if u.Host != "" && u.Host != "localhost" || !filepath.IsAbs(u.Path) {
			return nil, fmt.Errorf("store %q: a file URL names an absolute local directory (file:///path)", raw)
		}
		c, err := cache.Open(u.Path)
		if err != nil {
			return nil, fmt.Errorf("store %q: %w", raw, err)
		}
		return &DirStore{c: c}, nil
	}
	return nil, fmt.Errorf("store %q: unsupported scheme %q (want file:///dir)", raw, u.Scheme)
}

// DirStore is a Store over a cache directory.
type DirStore struct{ c *cache.Cache }

// NewDirStore returns a store over c.
func NewDirStore(c *cache.Cache) *DirStore { return &DirStore{c: c} }

func (s *DirStore) Has(_ context.Context, d cache.Digest, size int64) (bool, error) {
	return s.c.Has(d, size), nil
}

func (s *DirStore) Get(_ context.Context, d cache.Digest) (io.ReadCloser, error) {
	if !d.Valid() {
		return nil, fmt.Errorf("invalid digest %q", d)
	}
	pr, pw := io.Pipe()
	go func() {
		_, err := s.c.CopyTo(pw, d)
		pw.CloseWithError(err)
	}()
	return pr, nil
}

func (s *DirStore) Put(_ context.Context, d cache.Digest, size int64, r io.Reader) error {
	got, n, err := s.c.PutReader(r)
	if err != nil {
		return err
	}
	if got != d || n != size {
		return fmt.Errorf("put blob %s: received %d bytes hashing to %s", d.Short(), n, got.Short())
	}
	return nil
}

func (s *DirStore) GetAction(_ context.Context, key cache.Digest) (*cache.ActionRecord, error) {
	return s.c.GetAction(key)
}

func (s *DirStore) PutAction(_ context.Context, rec *cache.ActionRecord) error {
	return s.c.PutAction(rec)
}

// sameDir reports whether store s is the cache directory c itself, when
// nothing needs to move.
func sameDir(s Store, c *cache.Cache) bool {
	ds, ok := s.(*DirStore)
	if !ok {
		return false
	}
	a, err1 := filepath.Abs(ds.c.Dir())
	b, err2 := filepath.Abs(c.Dir())
	return err1 == nil && err2 == nil && a == b
}

// push copies the blobs of outputs (tree manifests and their members too)
// from the local cache to the store, skipping what the store has.
func push(ctx context.Context, local *cache.Cache, s Store, outputs []cache.Output) error {
	if s == nil || sameDir(s, local) {
		return nil
	}
	for _, o := range outputs {
		if err := pushBlob(ctx, local, s, o.Digest, o.Size); err != nil {
			return fmt.Errorf("upload %s: %w", o.Name, err)
		}
		if o.Kind != cache.KindTree {
			continue
		}
		t, err := local.ReadTree(o.Digest)
		if err != nil {
			return fmt.Errorf("upload %s: %w", o.Name, err)
		}
		for _, e := range t.Entries {
			if e.Digest == "" {
				continue
			}
			if err := pushBlob(ctx, local, s, e.Digest, e.Size); err != nil {
				return fmt.Errorf("upload %s: %s: %w", o.Name, e.Path, err)
			}
		}
	}
	return nil
}

func pushBlob(ctx context.Context, local *cache.Cache, s Store, d cache.Digest, size int64) error {
	if ok, err := s.Has(ctx, d, size); err == nil && ok {
		return nil
	}
	pr, pw := io.Pipe()
	go func() {
		_, err := local.CopyTo(pw, d)
		pw.CloseWithError(err)
	}()
	err := s.Put(ctx, d, size, pr)
	pr.CloseWithError(err)
	return err
}

// pull copies the blobs of outputs from the store into the local cache,
// checking each one's digest: a blob that arrives with other bytes is an
// error, never a result.
func pull(ctx context.Context, s Store, local *cache.Cache, outputs []cache.Output) error {
	if s == nil || sameDir(s, local) {
		return nil
	}
	for _, o := range outputs {
		if err := pullBlob(ctx, s, local, o.Digest, o.Size); err != nil {
			return fmt.Errorf("download %s: %w", o.Name, err)
		}
		if o.Kind != cache.KindTree {
			continue
		}
		t, err := local.ReadTree(o.Digest)
		if err != nil {
			return fmt.Errorf("download %s: %w", o.Name, err)
		}
		for _, e := range t.Entries {
			if e.Digest == "" {
				continue
			}
			if err := pullBlob(ctx, s, local, e.Digest, e.Size); err != nil {
				return fmt.Errorf("download %s: %s: %w", o.Name, e.Path, err)
			}
		}
	}
	return nil
}

func pullBlob(ctx context.Context, s Store, local *cache.Cache, d cache.Digest, size int64) error {
	if local.Has(d, size) {
		return nil
	}
	r, err := s.Get(ctx, d)
	if err != nil {
		return err
	}
	defer r.Close()
	got, n, err := local.PutReader(r)
	if err != nil {
		return err
	}
	if got != d || n != size {
		return &cache.CorruptError{Digest: d, Reason: fmt.Sprintf("the store sent %d bytes hashing to %s", n, got.Short())}
	}
	return nil
}

// recordOutputs lists every blob a record names: results and side logs.
func recordOutputs(rec *cache.ActionRecord) []cache.Output {
	return append(append([]cache.Output(nil), rec.Results...), rec.Side...)
}
