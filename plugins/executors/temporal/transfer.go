package temporal

import (
	"context"
	"errors"
	"fmt"

	"github.com/osbench/osbench/engine/cache"
)

// Temporal carries digests only; the bytes go through the remote cache
// attached to the client's and the workers' caches (cache.AttachRemote,
// --remote-cache). Without one, client and workers must share one cache
// directory: then every blob is already where it is read, and a blob that
// is not is an error, never a silent wrong result.

// pushInputs uploads the records the step reads, with every blob they
// reach, so a worker on another machine can fetch them. A hit of the
// client's may predate the remote, so this is not left to PutAction.
func pushInputs(ctx context.Context, c *cache.Cache, inputs []*cache.ActionRecord) error {
	if !c.HasRemote() {
		return nil
	}
	for _, rec := range inputs {
		if rec == nil || rec.Failed {
			continue // an absent input carries no blobs
		}
		c.Push(ctx, rec)
	}
	if !c.HasRemote() {
		// Push warns and switches the remote off on a transport failure.
		return errors.New("the remote cache failed while uploading the step's inputs; workers could not fetch them")
	}
	return nil
}

// pushRun uploads what a worker's run produced: a success with its record
// (the store then serves it to any later attempt), a failure's logs only
// (a failed record is never uploaded).
func pushRun(ctx context.Context, c *cache.Cache, rec *cache.ActionRecord) error {
	if !c.HasRemote() {
		return nil
	}
	if rec.Failed {
		for _, o := range rec.Side {
			c.PushBlob(ctx, o.Digest)
		}
	} else {
		c.Push(ctx, rec)
	}
	if !c.HasRemote() {
		return errors.New("the remote cache failed while uploading the step's results")
	}
	return nil
}

// pullOutputs makes every blob of outputs local (trees with their members),
// fetching from the remote what is missing; each is verified on arrival.
func pullOutputs(ctx context.Context, c *cache.Cache, outputs []cache.Output) error {
	for _, o := range outputs {
		var err error
		if o.Kind == cache.KindTree {
			err = c.PullTree(ctx, o.Digest)
		} else {
			err = c.PullBlob(ctx, o.Digest, o.Size)
		}
		if errors.Is(err, cache.ErrMiss) && !c.HasRemote() {
			err = fmt.Errorf("%w (no remote cache: the client and its workers must then share one cache directory)", err)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", o.Name, err)
		}
	}
	return nil
}

// inputOutputs lists the results of the step's inputs that it reads: only
// the named result of an input that names one.
func inputOutputs(rec *cache.ActionRecord, result string) []cache.Output {
	if rec == nil || rec.Failed {
		return nil
	}
	if result == "" {
		return rec.Results
	}
	for _, o := range rec.Results {
		if o.Name == result {
			return []cache.Output{o}
		}
	}
	return nil
}
