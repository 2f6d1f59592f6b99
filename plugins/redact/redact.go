// Package redact keeps secret values out of what osbench stores: a Writer
// passes output on with each value replaced by "[secret NAME]" as it is
// written, holding back only the bytes that may still begin a secret. The
// solve step wraps the agent's logs and artifacts in one, the test step its
// log and the parser's input (secret_env of both).
package redact

import (
	"bytes"
	"fmt"
	"io"
	"sort"
)

// MinLen is the shortest value that is redacted; a shorter one would be
// replaced wherever its bytes occur by chance, so it is refused.
const MinLen = 6

// Set is the values of some secrets, longest first, so that a secret
// containing another is replaced whole.
type Set struct {
	values [][]byte
	names  []string
}

// New makes the set of the named values.
func New(values map[string]string) (Set, error) {
	names := make([]string, 0, len(values))
	for n := range values {
		names = append(names, n)
	}
	sort.Strings(names)
	var s Set
	for _, n := range names {
		if len(values[n]) < MinLen {
			return Set{}, fmt.Errorf("secret %s: its value has %d bytes, fewer than the %d it needs to be told apart from ordinary output and redacted",
				n, len(values[n]), MinLen)
		}
		s.values = append(s.values, []byte(values[n]))
		s.names = append(s.names, n)
	}
	order := make([]int, len(s.values))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(s.values[order[a]]) > len(s.values[order[b]]) })
	var sorted Set
	for _, i := range order {
		sorted.values = append(sorted.values, s.values[i])
		sorted.names = append(sorted.names, s.names[i])
	}
	return sorted, nil
}

// Writer redacts what it passes to the writer it wraps (nil: discards).
// Flush writes what it held back; Close flushes and closes the wrapped
// writer when it is an io.Closer.
type Writer struct {
	w       io.Writer
	set     Set
	first   [256]bool // first bytes of the secrets
	pending []byte
}

// Wrap returns a Writer over w.
func (s Set) Wrap(w io.Writer) *Writer {
	r := &Writer{w: w, set: s}
	for _, v := range s.values {
		r.first[v[0]] = true
	}
	return r
}

func (r *Writer) Write(p []byte) (int, error) {
	if r.w == nil {
		return len(p), nil
	}
	if len(r.set.values) == 0 {
		return r.w.Write(p)
	}
	r.pending = append(r.pending, p...)
	if err := r.emit(false); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held back: the output has ended.
func (r *Writer) Flush() error {
	if r.w == nil || len(r.pending) == 0 {
		return nil
	}
	return r.emit(true)
}

// Close flushes and closes the wrapped writer when it is an io.Closer.
func (r *Writer) Close() error {
	err := r.Flush()
	if c, ok := r.w.(io.Closer); ok {
		if cerr := c.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// emit writes pending out up to where a secret may still be under way,
// replacing the secrets in it; at each position the longest secret that
// matches wins. final writes everything.
func (r *Writer) emit(final bool) error {
	var out []byte
	i, done := 0, 0
scan:
	for i < len(r.pending) {
		if !r.first[r.pending[i]] {
			i++
			continue
		}
		rest := r.pending[i:]
		for k, v := range r.set.values {
			if bytes.HasPrefix(rest, v) {
				out = append(out, r.pending[done:i]...)
				out = append(out, "[secret "+r.set.names[k]+"]"...)
				i += len(v)
				done = i
				continue scan
			}
		}
		if !final {
			for _, v := range r.set.values {
				if len(rest) < len(v) && bytes.HasPrefix(v, rest) {
					break scan
				}
			}
		}
		i++
	}
	out = append(out, r.pending[done:i]...)
	r.pending = append(r.pending[:0], r.pending[i:]...)
	if len(out) == 0 {
		return nil
	}
	_, err := r.w.Write(out)
	return err
}
