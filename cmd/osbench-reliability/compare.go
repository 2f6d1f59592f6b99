package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Two builds of the same inputs record different wall-clock durations by
// design: build-steps.json (each step's duration_ns, the run id) and the
// marker line every run log ends with ("[osbench: exit 0, timed out false,
// 12ms]"), and so an evaluation report's log digests. build-steps.json also
// says how this build came by each result — ran it or was served it from
// the cache, and why — which depends on what the cache held (a gc killed
// halfway keeps another set than one that finished), not on the result.
// The comparison blanks those and nothing else: keys, output digests,
// labels and every other file count.
var logDuration = regexp.MustCompile(`(\[osbench: (?:build |compile phase )?exit -?\d+, timed out \w+, )[^\]\n]*\]`)

// normalize returns the bytes of an exported file with its wall-clock
// fields blanked.
func normalize(rel string, b []byte) []byte {
	switch {
	case strings.HasSuffix(rel, ".log"):
		return logDuration.ReplaceAll(b, []byte("${1}-]"))
	case filepath.Base(rel) == "build-steps.json":
		var v any
		if json.Unmarshal(b, &v) != nil {
			return b
		}
		// run_duration_ns is a hit's record of how long its run took,
		// retries the machine's bad moments: neither is a result.
		dropKeys(v, "run", "duration_ns", "run_duration_ns", "retries", "reason")
		hitAsRan(v)
		out, _ := json.Marshal(v)
		return out
	case filepath.Base(rel) == "report.json":
		// An evaluation report names each stage's log by path and digest;
		// the log itself is compared (durations blanked), its digest cannot
		// be.
		var v any
		if json.Unmarshal(b, &v) != nil {
			return b
		}
		dropLogDigests(v)
		out, _ := json.Marshal(v)
		return out
	}
	return b
}

// hitAsRan makes the steps' "hit" status read "ran": either way the step's
// result is there; "failed", "skipped" and the rest stay.
func hitAsRan(v any) {
	doc, ok := v.(map[string]any)
	if !ok {
		return
	}
	steps, _ := doc["steps"].([]any)
	for _, s := range steps {
		if m, ok := s.(map[string]any); ok && m["status"] == "hit" {
			m["status"] = "ran"
		}
	}
}

func dropLogDigests(v any) {
	switch x := v.(type) {
	case map[string]any:
		if p, ok := x["path"].(string); ok && strings.HasSuffix(p, ".log") {
			delete(x, "digest")
		}
		for _, e := range x {
			dropLogDigests(e)
		}
	case []any:
		for _, e := range x {
			dropLogDigests(e)
		}
	}
}

func dropKeys(v any, keys ...string) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range keys {
			delete(x, k)
		}
		for _, e := range x {
			dropKeys(e, keys...)
		}
	case []any:
		for _, e := range x {
			dropKeys(e, keys...)
		}
	}
}

// snapshot reads every file (and symlink) under dir, keyed by its slash
// path, normalized.
func snapshot(dir string) (map[string][]byte, error) {
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			m[rel] = []byte("symlink → " + target)
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		m[rel] = normalize(rel, b)
		return nil
	})
	return m, err
}

// diffPaths lists the paths present in only one snapshot or with other
// content, sorted.
func diffPaths(a, b map[string][]byte) []string {
	var out []string
	for p, x := range a {
		if y, ok := b[p]; !ok || !bytes.Equal(x, y) {
			out = append(out, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// beyond returns the paths of diff that are not in noise: what differs
// between a trial and the reference that does not also differ between two
// clean builds.
func beyond(diff []string, noise map[string]bool) []string {
	var out []string
	for _, p := range diff {
		if !noise[p] {
			out = append(out, p)
		}
	}
	return out
}

// pathSet turns a path list into a set.
func pathSet(paths []string) map[string]bool {
	s := map[string]bool{}
	for _, p := range paths {
		s[p] = true
	}
	return s
}

// headList shows at most n paths of a list.
func headList(paths []string, n int) string {
	if len(paths) <= n {
		return strings.Join(paths, ", ")
	}
	return strings.Join(paths[:n], ", ") + ", …"
}
