package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/osbench/osbench/engine/cache"
)

// Component is one input of an action key. The key is the hash of all
// components; explain compares components one by one to say what changed.
type Component struct {
	Name string `json:"name"` // "kind", "config.timeout", "input.source", "env.executor"
	// Value is the canonical text hashed into the key (canonical JSON for
	// config, an output digest for inputs).
	Value string `json:"value"`
	// Display is what people read: the value itself for config, the
	// upstream's label for inputs ("go1.25.1").
	Display string `json:"display,omitempty"`
	Source  string `json:"source,omitempty"` // manifest file:line:col
}

// canonicalJSON encodes v with sorted object keys and no insignificant
// space. encoding/json already sorts map keys; structs are re-encoded through
// a generic value so field order cannot matter either.
func canonicalJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var generic any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&generic); err != nil {
		return "", err
	}
	b, err = json.Marshal(generic)
	return string(b), err
}

// components lists s's key components given its inputs' output digests and
// labels. The result is sorted by name.
func components(s *Step, k Kind, inputs map[string]*cache.ActionRecord) ([]Component, error) {
	cs := make([]Component, 0, 2+len(s.Config)+len(s.Inputs)+len(s.Env))
	cs = append(cs, Component{Name: "kind", Value: k.Name() + "@" + k.Version(), Display: k.Name() + "@" + k.Version()})
	for _, f := range s.Config {
		v, err := canonicalJSON(f.Value)
		if err != nil {
			return nil, fmt.Errorf("step %s: config %s: %w", s.ID, f.Name, err)
		}
		cs = append(cs, Component{Name: "config." + f.Name, Value: v, Display: v, Source: f.Source})
	}
	for _, in := range s.Inputs {
		rec := inputs[in.Name]
		if rec == nil {
			return nil, fmt.Errorf("step %s: input %s (%s) has no result", s.ID, in.Name, in.Step)
		}
		if isAbsent(rec) {
			cs = append(cs, Component{Name: "input." + in.Name, Value: "absent", Display: "absent (" + rec.Label + ")", Source: in.Step})
			continue
		}
		value, short := string(rec.OutputDigest), rec.OutputDigest.Short()
		if in.Result != "" {
			o, ok := resultNamed(rec, in.Result)
			if !ok {
				return nil, fmt.Errorf("step %s: input %s: step %s has no result %q", s.ID, in.Name, in.Step, in.Result)
			}
			value, short = "result:"+string(o.Kind)+":"+string(o.Digest), o.Digest.Short()
		}
		disp := rec.Label
		if disp == "" {
			disp = short
		}
		cs = append(cs, Component{Name: "input." + in.Name, Value: value, Display: disp, Source: in.Step})
	}
	for name, v := range s.Env {
		cs = append(cs, Component{Name: "env." + name, Value: v, Display: v})
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	return cs, nil
}

// actionKey hashes components. Each is written as name, NUL, length-prefixed
// value, so no two different component lists can encode the same bytes.
func actionKey(cs []Component) cache.Digest {
	h := sha256.New()
	h.Write([]byte("osbench-action-v1\n"))
	for _, c := range cs {
		fmt.Fprintf(h, "%s\x00%d:%s\n", c.Name, len(c.Value), c.Value)
	}
	return cache.Digest(hex.EncodeToString(h.Sum(nil)))
}

// outputDigest hashes a step's results (never its side artifacts): equal
// results give equal digests however and whenever they were produced, which
// is what lets an unchanged rerun stop invalidation (early cutoff).
func outputDigest(results []cache.Output) cache.Digest {
	sorted := append([]cache.Output(nil), results...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	var b strings.Builder
	b.WriteString("osbench-outputs-v1\n")
	for _, o := range sorted {
		fmt.Fprintf(&b, "%s\x00%s\x00%s\n", o.Name, o.Kind, o.Digest)
	}
	return cache.Sum([]byte(b.String()))
}

func resultNamed(rec *cache.ActionRecord, name string) (cache.Output, bool) {
	for _, o := range rec.Results {
		if o.Name == name {
			return o, true
		}
	}
	return cache.Output{}, false
}
