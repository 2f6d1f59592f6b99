package testrun

import (
	"bytes"
	"fmt"
	"io"
	"sort"
)

// secret_env passes variables of osbench's own environment to the test
// commands by name. The names are part of the step's configuration (and
// so of its key); the values are not, and never reach what osbench keeps:
// the test log and the parser's input (and so tests.json) get each value
// replaced by "[secret NAME]" as the command prints it.
//
// The tested code itself can read the variables: secret_env keeps them out
// of osbench's records, not away from the code it runs (docs/security.md).

// minRedactedLen is the shortest value that is redacted; a shorter one
// would be replaced wherever its bytes occur by chance, mangling the
// output the parser reads, so it is refused.
const minRedactedLen = 6

// secretSet is the values of a step's secrets, longest first, so that a
// secret containing another is replaced whole.
type secretSet struct {
	values [][]byte
	names  []string
}

// withSecrets adds the variables names to env, from lookup.
func withSecrets(env []string, names []string, lookup func(string) (string, bool)) ([]string, secretSet, error) {
	var s secretSet
	for _, name := range names {
		value, ok := lookup(name)
		if !ok {
			return nil, s, fmt.Errorf("secret_env names %s, which is not set in osbench's environment", name)
		}
		if len(value) < minRedactedLen {
			return nil, s, fmt.Errorf("secret_env: the value of %s has %d bytes, fewer than the %d it needs to be told apart from ordinary output and redacted",
				name, len(value), minRedactedLen)
		}
		env = append(env, name+"="+value)
		s.values = append(s.values, []byte(value))
		s.names = append(s.names, name)
	}
	order := make([]int, len(s.values))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(s.values[order[a]]) > len(s.values[order[b]]) })
	sorted := secretSet{}
	for _, i := range order {
		sorted.values = append(sorted.values, s.values[i])
		sorted.names = append(sorted.names, s.names[i])
	}
	return env, sorted, nil
}

// redact returns a writer that passes what is written to w with the
// secrets replaced. It holds back output from the first place where a
// secret may begin but has not ended yet, until more output or flush
// decides.
func (s secretSet) redact(w io.Writer) *redactor {
	r := &redactor{w: w, secrets: s}
	for _, v := range s.values {
		r.first[v[0]] = true
	}
	return r
}

type redactor struct {
	w       io.Writer
	secrets secretSet
	first   [256]bool // first bytes of the secrets
	pending []byte
}

func (r *redactor) Write(p []byte) (int, error) {
	if r.w == nil {
		return len(p), nil
	}
	if len(r.secrets.values) == 0 {
		return r.w.Write(p)
	}
	r.pending = append(r.pending, p...)
	if err := r.emit(false); err != nil {
		return 0, err
	}
	return len(p), nil
}

// emit writes out pending up to where a secret may still be under way
// (everything at the end of the output), replacing the secrets in it. At
// each position the longest secret that matches wins.
func (r *redactor) emit(final bool) error {
	var out []byte
	i, done := 0, 0
scan:
	for i < len(r.pending) {
		if !r.first[r.pending[i]] {
			i++
			continue
		}
		rest := r.pending[i:]
		for k, v := range r.secrets.values { // longest first
			if bytes.HasPrefix(rest, v) {
				out = append(out, r.pending[done:i]...)
				out = append(out, "[secret "+r.secrets.names[k]+"]"...)
				i += len(v)
				done = i
				continue scan
			}
		}
		if !final {
			for _, v := range r.secrets.values {
				if len(rest) < len(v) && bytes.HasPrefix(v, rest) {
					break scan // may become a secret: wait for more
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

// flush writes what is held back; the output has ended.
func (r *redactor) flush() error {
	if r.w == nil || len(r.pending) == 0 {
		return nil
	}
	return r.emit(true)
}
