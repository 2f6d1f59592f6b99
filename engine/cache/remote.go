package cache

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// RemoteOptions configure a remote store behind a local cache.
type RemoteOptions struct {
	// Name says which remote a warning is about (its URL, without any
	// credentials).
	Name string
	// ReadOnly never writes to the remote: for untrusted runs, whose
	// results must not be served to anyone else.
	ReadOnly bool
	// Warn receives at most one line per process: the first time the
	// remote fails. Every failure is a miss; the run goes on locally.
	Warn func(msg string)
}

// remote is the tier behind the local directory.
type remote struct {
	store Store
	opt   RemoteOptions
	// off is set after a transport failure (error status, timeout, a
	// connection that died): one hanging server costs one timeout, not one
	// per step.
	off  atomic.Bool
	warn sync.Once
	// bad holds digests the remote served corrupt: a push uploads them
	// again even though the remote says it has them, so a recomputed
	// result repairs the remote.
	bad sync.Map
}

// transfers bounds the blobs moved at once for one record (a toolchain
// tree has thousands of files; one connection each would be slow).
const transfers = 8

// AttachRemote puts s behind c: a record or blob missing locally is looked
// up in s, verified and copied into c before it is used; a successful
// record that c stores (PutAction) is uploaded with every blob it reaches,
// the record last. Attach before first use; c must not be shared with
// code that expects a local-only cache.
func (c *Cache) AttachRemote(s Store, opt RemoteOptions) {
	c.remote = &remote{store: s, opt: opt}
}

// HasRemote reports whether a remote store is attached and still in use.
func (c *Cache) HasRemote() bool { return c.remote != nil && !c.remote.off.Load() }

// remoteFailed turns a remote error into a miss: it warns (once), and a
// transport failure turns the remote off for the rest of the process.
// Cancellation of the caller is neither.
func (c *Cache) remoteFailed(ctx context.Context, err error) error {
	if errors.Is(err, ErrMiss) || ctx.Err() != nil {
		return ErrMiss
	}
	r := c.remote
	var corrupt *CorruptError
	var bad *BadRecordError
	integrity := errors.As(err, &corrupt) || errors.As(err, &bad)
	if corrupt != nil {
		r.bad.Store(corrupt.Digest, true)
	}
	msg := fmt.Sprintf("remote cache %s: %v; treated as a miss", r.opt.Name, err)
	if !integrity {
		r.off.Store(true)
		msg = fmt.Sprintf("remote cache %s: %v; not used for the rest of this run", r.opt.Name, err)
	}
	r.warn.Do(func() {
		if r.opt.Warn != nil {
			r.opt.Warn(msg)
		}
	})
	return ErrMiss
}

// BadRecordError says a remote action record does not decode or is not the
// record of the key it was fetched under.
type BadRecordError struct {
	Key    Digest
	Reason string
}

func (e *BadRecordError) Error() string {
	return fmt.Sprintf("action record %s: %s", e.Key.Short(), e.Reason)
}

// Pull makes the successful record of key and everything it reaches local,
// fetching from the remote what is missing: every blob is verified against
// its digest and size, every tree manifest checked like a local one (no
// escaping paths, nothing below a link), and the record is stored locally
// only once all of it is. It returns ErrMiss when neither tier has it (a
// remote failure is a miss too, with one warning per process).
func (c *Cache) Pull(ctx context.Context, key Digest) (*ActionRecord, error) {
	rec, err := c.getActionLocal(key)
	if err == nil && !rec.Failed {
		if c.remote == nil || c.hasAll(rec) {
			return rec, nil
		}
	} else if err != nil && !errors.Is(err, ErrMiss) {
		return nil, err
	}
	if !c.HasRemote() {
		if rec != nil {
			return rec, nil // a failed record: for explain, never a hit
		}
		return nil, ErrMiss
	}
	remoteRec, rerr := c.pullAction(ctx, key)
	if rerr != nil {
		if rec != nil {
			return rec, nil
		}
		return nil, rerr
	}
	return remoteRec, nil
}

func (c *Cache) pullAction(ctx context.Context, key Digest) (*ActionRecord, error) {
	rec, err := c.remote.store.ReadAction(ctx, key)
	if err != nil {
		return nil, c.remoteFailed(ctx, err)
	}
	if rec.Key != key {
		return nil, c.remoteFailed(ctx, &BadRecordError{Key: key, Reason: "names key " + rec.Key.Short()})
	}
	if rec.Failed {
		return nil, ErrMiss // never served; a remote should not hold one
	}
	if err := c.pullOutputs(ctx, rec); err != nil {
		return nil, c.remoteFailed(ctx, err)
	}
	if err := c.putActionLocal(rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// pullOutputs fetches a record's results and side artifacts, and every
// member of its trees.
func (c *Cache) pullOutputs(ctx context.Context, rec *ActionRecord) error {
	var blobs []Output
	for _, o := range append(append([]Output{}, rec.Results...), rec.Side...) {
		if !o.Digest.Valid() {
			return &BadRecordError{Key: rec.Key, Reason: fmt.Sprintf("output %q has an invalid digest", o.Name)}
		}
		if o.Kind != KindTree {
			blobs = append(blobs, o)
			continue
		}
		if err := c.PullTree(ctx, o.Digest); err != nil {
			return err
		}
	}
	return c.pullBlobs(ctx, blobs)
}

func (c *Cache) pullBlobs(ctx context.Context, blobs []Output) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(transfers)
	for _, o := range blobs {
		g.Go(func() error { return c.fetchBlob(ctx, o.Digest, o.Size) })
	}
	return g.Wait()
}

// PullBlob makes blob d (of size bytes; < 0: any) local, fetching it from
// the remote when it is missing. ErrMiss when neither tier has it.
func (c *Cache) PullBlob(ctx context.Context, d Digest, size int64) error {
	if !d.Valid() {
		return fmt.Errorf("pull blob: invalid digest %q", d)
	}
	if c.present(d, size) {
		return nil
	}
	if !c.HasRemote() {
		return ErrMiss
	}
	if err := c.fetchBlob(ctx, d, size); err != nil {
		return c.remoteFailed(ctx, err)
	}
	return nil
}

// PullTree makes tree d and every file it lists local. The manifest is
// checked (ReadTree) before any member is fetched.
func (c *Cache) PullTree(ctx context.Context, d Digest) error {
	if err := c.fetchBlob(ctx, d, -1); err != nil {
		return err
	}
	t, err := c.ReadTree(d)
	if err != nil {
		os.Remove(c.blobPath(d))
		var corrupt *CorruptError
		if errors.As(err, &corrupt) {
			return err
		}
		return &BadRecordError{Key: d, Reason: err.Error()}
	}
	members := make([]Output, 0, len(t.Entries))
	for _, e := range t.Entries {
		members = append(members, Output{Name: e.Path, Digest: e.Digest, Size: e.Size})
	}
	return c.pullBlobs(ctx, members)
}

func (c *Cache) present(d Digest, size int64) bool {
	if size >= 0 {
		return c.hasSize(d, size)
	}
	fi, err := os.Stat(c.blobPath(d))
	return err == nil && fi.Mode().IsRegular()
}

// fetchBlob copies blob d from the remote into the local directory,
// verifying digest and size whatever the remote store itself checks.
func (c *Cache) fetchBlob(ctx context.Context, d Digest, size int64) error {
	if c.present(d, size) {
		return nil
	}
	if c.remote == nil {
		return ErrMiss
	}
	tmp, got, n, err := c.spool("pull-*", func(w io.Writer) error { _, err := c.remote.store.ReadBlob(ctx, d, w); return err })
	defer os.Remove(tmp)
	if err != nil {
		return err
	}
	if got != d {
		return &CorruptError{Digest: d, Reason: "content hashes to " + got.Short(), Source: c.remote.opt.Name}
	}
	if size >= 0 && n != size {
		return &CorruptError{Digest: d, Reason: fmt.Sprintf("size %d, want %d", n, size), Source: c.remote.opt.Name}
	}
	return c.adopt(tmp, d)
}

// hasAll reports whether every blob rec reaches is local.
func (c *Cache) hasAll(rec *ActionRecord) bool {
	for _, o := range append(append([]Output{}, rec.Results...), rec.Side...) {
		if !c.Has(o.Digest, o.Size) && !(o.Kind == KindTree && c.present(o.Digest, -1)) {
			return false
		}
		if o.Kind == KindTree {
			t, err := c.readTreeLocal(o.Digest)
			if err != nil {
				return false
			}
			for _, e := range t.Entries {
				if !c.hasSize(e.Digest, e.Size) {
					return false
				}
			}
		}
	}
	return true
}

// Push uploads rec and every blob it reaches to the remote, the record
// last, so the remote never holds a record whose blobs it lacks. A failed
// record is never uploaded, nor anything in read-only mode. A remote
// failure is a warning (once) and returns nil: the local result stands.
func (c *Cache) Push(ctx context.Context, rec *ActionRecord) error {
	if rec == nil || rec.Failed || !c.HasRemote() || c.remote.opt.ReadOnly {
		return nil
	}
	if err := c.push(ctx, rec); err != nil {
		c.remoteFailed(ctx, err)
	}
	return nil
}

func (c *Cache) push(ctx context.Context, rec *ActionRecord) error {
	var blobs []Output
	for _, o := range append(append([]Output{}, rec.Results...), rec.Side...) {
		blobs = append(blobs, o)
		if o.Kind == KindTree {
			t, err := c.ReadTree(o.Digest)
			if err != nil {
				return err
			}
			for _, e := range t.Entries {
				blobs = append(blobs, Output{Name: e.Path, Digest: e.Digest, Size: e.Size})
			}
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(transfers)
	for _, o := range blobs {
		g.Go(func() error { return c.pushBlob(gctx, o.Digest) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return c.remote.store.WriteAction(ctx, rec)
}

// PushBlob uploads one local blob to the remote (a prediction's patch that
// a step on another machine reads by digest). Like Push, a remote failure
// is a warning and nil; read-only mode uploads nothing.
func (c *Cache) PushBlob(ctx context.Context, d Digest) error {
	if !c.HasRemote() || c.remote.opt.ReadOnly {
		return nil
	}
	if err := c.pushBlob(ctx, d); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("push blob %s: not in the local cache", d.Short())
		}
		c.remoteFailed(ctx, err)
	}
	return nil
}

func (c *Cache) pushBlob(ctx context.Context, d Digest) error {
	f, err := os.Open(c.blobPath(d))
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if _, bad := c.remote.bad.Load(d); !bad {
		if n, err := c.remote.store.BlobSize(ctx, d); err == nil && n == fi.Size() {
			return nil
		} else if err != nil && !errors.Is(err, ErrMiss) {
			return err
		}
	}
	// WriteBlob refuses bytes that do not hash to d: a local blob gone bad
	// is never uploaded.
	if err := c.remote.store.WriteBlob(ctx, d, fi.Size(), f); err != nil {
		return err
	}
	c.remote.bad.Delete(d)
	return nil
}

// PushAll uploads every successful local record and what it reaches (the
// seeding of a new remote from a machine that built without one). Unlike
// Push it stops at the first remote failure and returns it: the operator
// asked for this upload and must know it did not happen.
func (c *Cache) PushAll(ctx context.Context) (records int, err error) {
	if c.remote == nil {
		return 0, fmt.Errorf("no remote cache attached")
	}
	if c.remote.opt.ReadOnly {
		return 0, fmt.Errorf("the remote cache is read-only")
	}
	err = c.walkEntries("ac", func(p string, fi fs.FileInfo) error {
		rec, err := readRecordFile(p)
		if err != nil || rec.Failed || !c.hasAll(rec) {
			return nil // a broken, failed or incomplete record stays local
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := c.push(ctx, rec); err != nil {
			return fmt.Errorf("push %s (%s): %w", rec.Key.Short(), rec.Step, err)
		}
		records++
		return nil
	})
	return records, err
}
