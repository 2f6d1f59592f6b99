package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
)

// Digest is the lower-case hex SHA-256 of some bytes.
type Digest string

// Sum returns the digest of b.
func Sum(b []byte) Digest {
	s := sha256.Sum256(b)
	return Digest(hex.EncodeToString(s[:]))
}

// Valid reports whether d has the shape of a SHA-256 hex digest. Names read
// from disk or from the network are checked with it before they become paths.
func (d Digest) Valid() bool {
	if len(d) != sha256.Size*2 {
		return false
	}
	for i := 0; i < len(d); i++ {
		c := d[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Short is the first 12 hex digits, for people.
func (d Digest) Short() string {
	if len(d) < 12 {
		return string(d)
	}
	return string(d[:12])
}

// hashingReader hashes what passes through it and counts the bytes.
type hashingReader struct {
	r io.Reader
	h hash.Hash
	n int64
}

func newHashingReader(r io.Reader) *hashingReader {
	return &hashingReader{r: r, h: sha256.New()}
}

func (hr *hashingReader) Read(p []byte) (int, error) {
	n, err := hr.r.Read(p)
	hr.h.Write(p[:n])
	hr.n += int64(n)
	return n, err
}

// hashingWriter hashes what passes through it to w and counts the bytes.
type hashingWriter struct {
	w io.Writer
	h hash.Hash
	n int64
}

func newHashingWriter(w io.Writer) *hashingWriter {
	return &hashingWriter{w: w, h: sha256.New()}
}

func (hw *hashingWriter) Write(p []byte) (int, error) {
	n, err := hw.w.Write(p)
	hw.h.Write(p[:n])
	hw.n += int64(n)
	return n, err
}

func (hw *hashingWriter) digest() Digest { return Digest(hex.EncodeToString(hw.h.Sum(nil))) }

func (hr *hashingReader) digest() Digest { return Digest(hex.EncodeToString(hr.h.Sum(nil))) }

// CorruptError says a stored blob no longer matches its name. The blob has
// been removed by the time the error is returned, so a retry recomputes it.
type CorruptError struct {
	Digest Digest
	Reason string
	// Source is "" for a blob of the local directory (removed by the time
	// the error is returned); otherwise where the bad bytes came from (a
	// remote cache's URL, "write") — nothing was stored from them.
	Source string
}

func (e *CorruptError) Error() string {
	if e.Source != "" {
		return fmt.Sprintf("blob %s from %s is corrupt (%s); not stored", e.Digest.Short(), e.Source, e.Reason)
	}
	return fmt.Sprintf("cache blob %s is corrupt (%s); removed", e.Digest.Short(), e.Reason)
}
