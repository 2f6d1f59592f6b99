package cache

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Store is the narrow interface of a content-addressed store: blobs named
// by their SHA-256, and action records named by their action key. The local
// cache directory (*Cache) implements it, and so does the HTTP remote cache
// (package engine/cache/httpcache); both pass one shared test suite
// (package engine/cache/storetest), so code written against Store works
// with either.
//
// Every method returns ErrMiss for an absent entry. A blob whose bytes do
// not hash to its name is reported as *CorruptError, never returned as if
// it were good; an action record that does not decode or names another key
// is a miss (local) or an error (remote), never a hit.
type Store interface {
	// BlobSize returns the size of blob d, or ErrMiss. It does not rehash.
	BlobSize(ctx context.Context, d Digest) (int64, error)
	// ReadBlob streams blob d into w and checks its digest on the way.
	// When the check fails (*CorruptError) w has received bad bytes:
	// callers write to scratch space and discard it on error.
	ReadBlob(ctx context.Context, d Digest, w io.Writer) (int64, error)
	// WriteBlob stores size bytes read from r as blob d. Bytes that do not
	// hash to d are refused, and nothing is stored under d.
	WriteBlob(ctx context.Context, d Digest, size int64, r io.Reader) error
	// ReadAction returns the record for key, or ErrMiss.
	ReadAction(ctx context.Context, key Digest) (*ActionRecord, error)
	// WriteAction stores rec under rec.Key. Write every blob the record
	// names first: the record is what makes them reachable.
	WriteAction(ctx context.Context, rec *ActionRecord) error
}

var _ Store = (*Cache)(nil)

// BlobSize implements Store on the local directory.
func (c *Cache) BlobSize(ctx context.Context, d Digest) (int64, error) {
	if !d.Valid() {
		return 0, fmt.Errorf("blob size: invalid digest %q", d)
	}
	fi, err := os.Stat(c.blobPath(d))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, ErrMiss
	}
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// ReadBlob implements Store on the local directory (CopyTo, which also
// falls through to an attached remote).
func (c *Cache) ReadBlob(ctx context.Context, d Digest, w io.Writer) (int64, error) {
	return c.CopyTo(w, d)
}

// WriteBlob implements Store on the local directory.
func (c *Cache) WriteBlob(ctx context.Context, d Digest, size int64, r io.Reader) error {
	if !d.Valid() {
		return fmt.Errorf("write blob: invalid digest %q", d)
	}
	return c.putVerified(d, size, r)
}

// putVerified streams r into a temp file and renames it to blob d only if
// it has size bytes (size < 0: any) and hashes to d.
func (c *Cache) putVerified(d Digest, size int64, r io.Reader) error {
	if size >= 0 && c.hasSize(d, size) {
		c.renewBlob(d)
		return nil
	}
	tmp, got, n, err := c.spool("in-*", func(w io.Writer) error { _, err := io.Copy(w, r); return err })
	defer os.Remove(tmp)
	if err != nil {
		return err
	}
	if got != d {
		return &CorruptError{Digest: d, Reason: "content hashes to " + got.Short(), Source: "write"}
	}
	if size >= 0 && n != size {
		return &CorruptError{Digest: d, Reason: fmt.Sprintf("size %d, want %d", n, size), Source: "write"}
	}
	return c.adopt(tmp, d)
}

// ReadAction implements Store on the local directory (GetAction).
func (c *Cache) ReadAction(ctx context.Context, key Digest) (*ActionRecord, error) {
	return c.GetAction(key)
}

// WriteAction implements Store on the local directory (PutAction).
func (c *Cache) WriteAction(ctx context.Context, rec *ActionRecord) error {
	return c.PutAction(rec)
}
