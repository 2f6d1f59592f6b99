package engine

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/osbench/osbench/engine/cache"
)

// historyEntry is one run of one step as remembered for explain: the key and
// every component that went into it.
type historyEntry struct {
	// Step is the step's ID, so the history can list the steps it knows
	// (files are named by a hash of it). Entries written before it was
	// kept have none.
	Step       string       `json:"step,omitempty"`
	Run        string       `json:"run"`
	Time       time.Time    `json:"time"`
	Key        cache.Digest `json:"key"`
	Status     Status       `json:"status"`
	Error      string       `json:"error,omitempty"`
	Components []Component  `json:"components"`
	// Side are the side artifacts (logs) this run kept, failed runs too:
	// the action record of a key is replaced when the key runs again, the
	// history keeps what each run wrote. The blobs live in the cache as
	// long as a record reaches them.
	Side []cache.Output `json:"side,omitempty"`
}

// history stores, per step ID, the keys it ran under. Only runs are
// appended (hits add nothing), so a no-op build writes nothing here.
type history struct{ dir string }

const (
	historyKeep    = 20   // entries kept when a file is compacted
	historyCompact = 60   // compact once a file holds this many
	maxDisplay     = 160  // characters of a value shown to people
	maxValue       = 4096 // characters of a value kept verbatim (longer ones are hashed)
)

func (h history) path(stepID string) string {
	sum := sha256.Sum256([]byte(stepID))
	name := hex.EncodeToString(sum[:])
	return filepath.Join(h.dir, name[:2], name+".jsonl")
}

// load returns the entries of stepID, oldest first. Lines that do not decode
// (a torn write after a kill) are skipped.
func (h history) load(stepID string) []historyEntry {
	b, err := os.ReadFile(h.path(stepID))
	if err != nil {
		return nil
	}
	var out []historyEntry
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var e historyEntry
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Key.Valid() {
			out = append(out, e)
		}
	}
	return out
}

// append adds one entry with a single write, so concurrent processes never
// interleave within a line.
func (h history) append(stepID string, e historyEntry) error {
	for i := range e.Components {
		e.Components[i] = shortened(e.Components[i])
	}
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	p := h.path(stepID)
	// History holds commands, errors and key components: osbench's own,
	// never readable by the unprivileged users steps run as (a cache made
	// before this was 0755: its top directory is made private here).
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	if err := h.makePrivate(); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(append(line, '\n'))
	cerr := f.Close()
	if werr != nil {
		return werr
	}
	if cerr != nil {
		return cerr
	}
	if entries := h.load(stepID); len(entries) > historyCompact {
		h.compact(p, entries[len(entries)-historyKeep:])
	}
	return nil
}

// privateDirs are the history directories this process has made private:
// the chmod is needed once per cache, not once per appended line.
var privateDirs sync.Map

func (h history) makePrivate() error {
	if _, done := privateDirs.Load(h.dir); done {
		return nil
	}
	if err := os.Chmod(h.dir, 0o700); err != nil {
		return err
	}
	privateDirs.Store(h.dir, true)
	return nil
}

func (h history) compact(p string, keep []historyEntry) {
	var buf bytes.Buffer
	for _, e := range keep {
		b, _ := json.Marshal(e)
		buf.Write(append(b, '\n'))
	}
	tmp := p + fmt.Sprintf(".%d.tmp", os.Getpid())
	if os.WriteFile(tmp, buf.Bytes(), 0o600) == nil {
		os.Rename(tmp, p)
	}
}

// shortened keeps long values hashed: a history line carries what explain
// needs to name a change, not whole command lines.
func shortened(c Component) Component {
	if len(c.Value) > maxValue {
		sum := sha256.Sum256([]byte(c.Value))
		c.Value = "sha256:" + hex.EncodeToString(sum[:])
	}
	if len(c.Display) > maxDisplay {
		c.Display = c.Display[:maxDisplay-1] + "…"
	}
	return c
}

// Change is one component that differs between two keys.
type Change struct {
	Component string `json:"component"`
	Old       string `json:"old,omitempty"`
	New       string `json:"new,omitempty"`
	Source    string `json:"source,omitempty"`
}

// String reads like "config.timeout: \"5m\" → \"10m\" (pathsep.hcl:12,7)".
func (c Change) String() string {
	var s string
	switch {
	case c.Old == "":
		s = fmt.Sprintf("%s added: %s", c.Component, c.New)
	case c.New == "":
		s = fmt.Sprintf("%s removed (was %s)", c.Component, c.Old)
	default:
		s = fmt.Sprintf("%s: %s → %s", c.Component, c.Old, c.New)
	}
	if c.Source != "" {
		s += " (" + c.Source + ")"
	}
	return s
}

// diffComponents lists what changed from old to cur, in component order.
func diffComponents(old, cur []Component) []Change {
	oldBy := make(map[string]Component, len(old))
	for _, c := range old {
		oldBy[c.Name] = c
	}
	var out []Change
	seen := map[string]bool{}
	for _, c := range cur {
		c = shortened(c)
		seen[c.Name] = true
		o, ok := oldBy[c.Name]
		switch {
		case !ok:
			out = append(out, Change{Component: c.Name, New: c.Display, Source: c.Source})
		case o.Value != c.Value:
			// Structured values: name the leaves that changed.
			if inner, ok := jsonChanges(o.Value, c.Value, 3); ok && len(inner) > 0 && (len(inner) > 1 || inner[0].Component != "") {
				for _, ch := range inner {
					ch.Component = joinPath(c.Name, ch.Component)
					ch.Source = c.Source
					out = append(out, ch)
				}
				continue
			}
			od, nd := o.Display, c.Display
			if od == nd {
				// Same short form, different content (e.g. long values).
				od, nd = shortValue(o.Value), shortValue(c.Value)
			}
			out = append(out, Change{Component: c.Name, Old: od, New: nd, Source: c.Source})
		}
	}
	for _, o := range old {
		if !seen[o.Name] {
			out = append(out, Change{Component: o.Name, Old: o.Display})
		}
	}
	return out
}

func shortValue(v string) string {
	v = strings.TrimPrefix(v, "sha256:")
	if len(v) > 12 {
		return v[:12]
	}
	return v
}
