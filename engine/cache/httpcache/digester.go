package httpcache

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"

	"github.com/osbench/osbench/engine/cache"
)

// digester is a running SHA-256 that yields a cache.Digest.
type digester struct{ h hash.Hash }

func newDigester() *digester { return &digester{h: sha256.New()} }

func (d *digester) Write(p []byte) { d.h.Write(p) }

func (d *digester) digest() cache.Digest { return cache.Digest(hex.EncodeToString(d.h.Sum(nil))) }
