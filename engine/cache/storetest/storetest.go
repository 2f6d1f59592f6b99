// Package storetest is the one test suite every cache.Store passes: the
// local cache directory and the HTTP remote cache run the same cases, so
// code written against the interface can count on the same behaviour from
// both (misses, round trips, refused bad writes, detected corruption).
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osbench/osbench/engine/cache"
)

// Harness is one fresh, empty store and the means to damage it behind its
// back, as a disk error or a hostile server would.
type Harness struct {
	Store cache.Store
	// Damage replaces the stored bytes of blob d.
	Damage func(t *testing.T, d cache.Digest, b []byte)
	// DamageAction replaces the stored bytes of the record of key.
	DamageAction func(t *testing.T, key cache.Digest, b []byte)
}

// Run runs every case, each on a store from open.
func Run(t *testing.T, open func(t *testing.T) Harness) {
	cases := []struct {
		name string
		fn   func(t *testing.T, h Harness)
	}{
		{"Misses", testMisses},
		{"BlobRoundTrip", testBlobRoundTrip},
		{"WrongBytesRefused", testWrongBytesRefused},
		{"DamagedBlobDetected", testDamagedBlobDetected},
		{"ActionRoundTrip", testActionRoundTrip},
		{"DamagedActionNeverAHit", testDamagedActionNeverAHit},
		{"InvalidNamesRefused", testInvalidNamesRefused},
		{"ConcurrentWriters", testConcurrentWriters},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.fn(t, open(t)) })
	}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return c
}

func write(t *testing.T, s cache.Store, b []byte) cache.Digest {
	t.Helper()
	d := cache.Sum(b)
	if err := s.WriteBlob(ctx(t), d, int64(len(b)), bytes.NewReader(b)); err != nil {
		t.Fatalf("WriteBlob(%d bytes): %v", len(b), err)
	}
	return d
}

func read(t *testing.T, s cache.Store, d cache.Digest) ([]byte, error) {
	var buf bytes.Buffer
	n, err := s.ReadBlob(ctx(t), d, &buf)
	if err == nil && n != int64(buf.Len()) {
		t.Errorf("ReadBlob reported %d bytes, wrote %d", n, buf.Len())
	}
	return buf.Bytes(), err
}

func testMisses(t *testing.T, h Harness) {
	d := cache.Sum([]byte("never stored"))
	if _, err := h.Store.BlobSize(ctx(t), d); !errors.Is(err, cache.ErrMiss) {
		t.Errorf("BlobSize of an absent blob: %v, want ErrMiss", err)
	}
	if _, err := read(t, h.Store, d); !errors.Is(err, cache.ErrMiss) {
		t.Errorf("ReadBlob of an absent blob: %v, want ErrMiss", err)
	}
	if rec, err := h.Store.ReadAction(ctx(t), d); !errors.Is(err, cache.ErrMiss) || rec != nil {
		t.Errorf("ReadAction of an absent key: %v, %v; want ErrMiss", rec, err)
	}
}

func testBlobRoundTrip(t *testing.T, h Harness) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16+1) // just over 1 MiB
	for _, b := range [][]byte{nil, []byte("hello"), big} {
		d := write(t, h.Store, b)
		write(t, h.Store, b) // again: harmless
		if n, err := h.Store.BlobSize(ctx(t), d); err != nil || n != int64(len(b)) {
			t.Errorf("BlobSize = %d, %v; want %d", n, err, len(b))
		}
		got, err := read(t, h.Store, d)
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("ReadBlob of %d bytes: %d bytes, %v", len(b), len(got), err)
		}
	}
}

func testWrongBytesRefused(t *testing.T, h Harness) {
	d := cache.Sum([]byte("the real content"))
	for name, body := range map[string][]byte{
		"other bytes of the same size": []byte("the fake content"),
		"a prefix":                     []byte("the real"),
	} {
		err := h.Store.WriteBlob(ctx(t), d, int64(len("the real content")), bytes.NewReader(body))
		if err == nil {
			t.Errorf("%s: WriteBlob accepted bytes that do not hash to the name", name)
		}
		if _, err := h.Store.BlobSize(ctx(t), d); !errors.Is(err, cache.ErrMiss) {
			t.Errorf("%s: after a refused write BlobSize = %v, want ErrMiss", name, err)
		}
	}
}

func testDamagedBlobDetected(t *testing.T, h Harness) {
	d := write(t, h.Store, []byte("hello"))
	h.Damage(t, d, []byte("jello"))
	got, err := read(t, h.Store, d)
	var ce *cache.CorruptError
	if !errors.As(err, &ce) || ce.Digest != d {
		t.Fatalf("ReadBlob of a damaged blob = %q, %v; want *CorruptError", got, err)
	}
}

func record(key cache.Digest, blob cache.Digest) *cache.ActionRecord {
	return &cache.ActionRecord{
		Key: key, Step: "demo/linux/test",
		Results:      []cache.Output{{Name: "results", Kind: cache.KindBlob, Digest: blob, Size: 5}},
		OutputDigest: cache.Sum([]byte("od")), Label: "1 pass",
		Duration: 1500 * time.Millisecond, Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}

func testActionRoundTrip(t *testing.T, h Harness) {
	blob := write(t, h.Store, []byte("hello"))
	key := cache.Sum([]byte("key"))
	want := record(key, blob)
	if err := h.Store.WriteAction(ctx(t), want); err != nil {
		t.Fatal(err)
	}
	got, err := h.Store.ReadAction(ctx(t), key)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(*got) != fmt.Sprint(*want) {
		t.Errorf("ReadAction = %+v\nwant %+v", got, want)
	}
	// A second write under the key replaces the first.
	want.Label = "2 pass"
	if err := h.Store.WriteAction(ctx(t), want); err != nil {
		t.Fatal(err)
	}
	if got, err := h.Store.ReadAction(ctx(t), key); err != nil || got.Label != "2 pass" {
		t.Errorf("after rewrite: %+v, %v", got, err)
	}
}

func testDamagedActionNeverAHit(t *testing.T, h Harness) {
	key := cache.Sum([]byte("key"))
	other := cache.Sum([]byte("other key"))
	for name, b := range map[string][]byte{
		"truncated":       []byte(`{"key":"` + string(key[:10])),
		"not json":        []byte("<html>502 Bad Gateway</html>"),
		"another's entry": []byte(fmt.Sprintf(`{"key":%q,"step":"x"}`, other)),
	} {
		if err := h.Store.WriteAction(ctx(t), record(key, cache.Sum([]byte("hello")))); err != nil {
			t.Fatal(err)
		}
		h.DamageAction(t, key, b)
		if rec, err := h.Store.ReadAction(ctx(t), key); err == nil || rec != nil {
			t.Errorf("%s record: ReadAction = %+v, %v; want an error", name, rec, err)
		}
	}
}

func testInvalidNamesRefused(t *testing.T, h Harness) {
	for _, d := range []cache.Digest{"../../etc/passwd", "", cache.Digest(strings.Repeat("A", 64))} {
		if _, err := h.Store.BlobSize(ctx(t), d); err == nil || errors.Is(err, cache.ErrMiss) {
			t.Errorf("BlobSize(%q) = %v; want a refusal", d, err)
		}
		if _, err := read(t, h.Store, d); err == nil || errors.Is(err, cache.ErrMiss) {
			t.Errorf("ReadBlob(%q) = %v; want a refusal", d, err)
		}
		if err := h.Store.WriteBlob(ctx(t), d, 1, strings.NewReader("x")); err == nil {
			t.Errorf("WriteBlob(%q) accepted", d)
		}
		if _, err := h.Store.ReadAction(ctx(t), d); err == nil || errors.Is(err, cache.ErrMiss) {
			t.Errorf("ReadAction(%q) = %v; want a refusal", d, err)
		}
		if err := h.Store.WriteAction(ctx(t), &cache.ActionRecord{Key: d}); err == nil {
			t.Errorf("WriteAction(%q) accepted", d)
		}
	}
}

func testConcurrentWriters(t *testing.T, h Harness) {
	b := bytes.Repeat([]byte("same content "), 10000)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := cache.Sum(b)
			if err := h.Store.WriteBlob(ctx(t), d, int64(len(b)), bytes.NewReader(b)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got, err := read(t, h.Store, cache.Sum(b)); err != nil || !bytes.Equal(got, b) {
		t.Errorf("after concurrent writes: %d bytes, %v", len(got), err)
	}
}
