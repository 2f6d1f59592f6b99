// Package shard splits named work (repositories of a build, predictions of
// an evaluation) over the N jobs of a CI matrix. A name's shard depends on
// the name alone (a hash), never on the order or the number of the other
// names, so adding a repository moves no other one and every job computes
// the same split independently.
package shard

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard is job Index (1-based) of Count. The zero value is the whole.
type Shard struct {
	Index, Count int
}

// Parse reads "I/N" (1 ≤ I ≤ N); "" is the whole.
func Parse(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	i, n, ok := strings.Cut(s, "/")
	idx, err1 := strconv.Atoi(i)
	count, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || count < 1 || idx < 1 || idx > count {
		return Shard{}, fmt.Errorf("--shard %q: want I/N with 1 ≤ I ≤ N, e.g. 1/4", s)
	}
	return Shard{Index: idx, Count: count}, nil
}

// Whole reports whether s is no split at all.
func (s Shard) Whole() bool { return s.Count <= 1 }

// Has reports whether name belongs to s.
func (s Shard) Has(name string) bool {
	if s.Whole() {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	return int(h.Sum64()%uint64(s.Count)) == s.Index-1
}

func (s Shard) String() string {
	if s.Whole() {
		return "1/1"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}
