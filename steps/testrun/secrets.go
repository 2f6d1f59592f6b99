package testrun

import (
	"fmt"
	"io"

	"github.com/osbench/osbench/plugins/redact"
)

// secret_env passes variables of osbench's own environment to the test
// commands by name. The names are part of the step's configuration (and
// so of its key); the values are not, and never reach what osbench keeps:
// the test log and the parser's input (and so tests.json) get each value
// replaced by "[secret NAME]" as the command prints it.
//
// The tested code itself can read the variables: secret_env keeps them out
// of osbench's records, not away from the code it runs (docs/security.md).

// secretSet is the values of a step's secrets (plugins/redact).
type secretSet struct{ set redact.Set }

// withSecrets adds the variables names to env, from lookup.
func withSecrets(env []string, names []string, lookup func(string) (string, bool)) ([]string, secretSet, error) {
	values := map[string]string{}
	for _, name := range names {
		value, ok := lookup(name)
		if !ok {
			return nil, secretSet{}, fmt.Errorf("secret_env names %s, which is not set in osbench's environment", name)
		}
		if len(value) < redact.MinLen {
			return nil, secretSet{}, fmt.Errorf("secret_env: the value of %s has %d bytes, fewer than the %d it needs to be told apart from ordinary output and redacted",
				name, len(value), redact.MinLen)
		}
		env = append(env, name+"="+value)
		values[name] = value
	}
	set, err := redact.New(values)
	if err != nil {
		return nil, secretSet{}, fmt.Errorf("secret_env: %w", err)
	}
	return env, secretSet{set}, nil
}

// redact returns a writer that passes what is written to w (nil:
// nothing) with the secrets replaced, holding back output where a secret
// may begin but has not ended yet, until more output or Flush decides.
func (s secretSet) redact(w io.Writer) *redact.Writer { return s.set.Wrap(w) }
