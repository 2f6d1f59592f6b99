package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/osbench/osbench/engine/cache"
)

// export copies a step's results named by its Exports into the out dir.
// A result built from absent inputs (partial: a collection some of whose
// producers failed, like tasks.jsonl after a failed direction) never
// replaces a complete export: it is written beside it as NAME.partial, so
// a failed build never truncates a good tasks.jsonl. It takes the place
// of an export that was itself partial, or of none.
func (e *Engine) export(s *Step, rec *cache.ActionRecord, partial bool) error {
	if e.opts.OutDir == "" || rec == nil {
		return nil
	}
	a := &Artifacts{cache: e.cache, rec: rec}
	for _, x := range s.Exports {
		if rec.Failed && !x.Side {
			continue // a failed run has only its logs
		}
		if x.Optional && (x.Side && a.SideDigest(x.Output) == "" || !x.Side && !hasResult(rec, x.Output)) {
			continue
		}
		dst := filepath.Join(e.opts.OutDir, filepath.FromSlash(x.Path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if x.Side {
			b, err := a.Side(x.Output)
			if err != nil {
				return fmt.Errorf("export log %s of %s: %w", x.Output, s.ID, err)
			}
			if err := writeFileAtomic(dst, b); err != nil {
				return err
			}
			continue
		}
		if o, err := a.output(x.Output, cache.KindTree); err == nil {
			if err := e.materializeAtomic(o.Digest, dst); err != nil {
				return fmt.Errorf("export %s of %s: %w", x.Output, s.ID, err)
			}
			continue
		}
		b, err := a.Bytes(x.Output)
		if err != nil {
			return fmt.Errorf("export %s of %s: %w", x.Output, s.ID, err)
		}
		if dst, err = e.partialTarget(x.Path, dst, partial); err != nil {
			return err
		}
		if err := writeFileAtomic(dst, b); err != nil {
			return err
		}
	}
	return nil
}

// partialMarker lists, in the out dir, the exports whose content is
// partial (one slash-separated path a line).
const partialMarker = ".osbench-partial"

// partialTarget returns where a file export goes — dst, or beside it for
// a partial result that must not replace a complete one (see export) —
// and keeps the marker up to date.
func (e *Engine) partialTarget(rel, dst string, partial bool) (string, error) {
	e.exportMu.Lock()
	defer e.exportMu.Unlock()
	markerPath := filepath.Join(e.opts.OutDir, partialMarker)
	b, _ := os.ReadFile(markerPath)
	marked := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" {
			marked[l] = true
		}
	}
	_, statErr := os.Stat(dst)
	switch {
	case partial && statErr == nil && !marked[rel]:
		e.opts.Log.Warn().Str("export", dst).Msg("this build is incomplete: the last complete build's file is kept; this build's is written beside it as .partial")
		return dst + ".partial", nil
	case partial:
		marked[rel] = true
	default:
		delete(marked, rel)
		os.Remove(dst + ".partial")
	}
	var lines []string
	for l := range marked {
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		if err := os.Remove(markerPath); err != nil && !os.IsNotExist(err) {
			return "", err
		}
		return dst, nil
	}
	sort.Strings(lines)
	return dst, writeFileAtomic(markerPath, []byte(strings.Join(lines, "\n")+"\n"))
}

// materializeAtomic writes a tree export beside dst and swaps it in once
// it is whole: a failed or killed export never leaves half a tree where a
// whole one was.
func (e *Engine) materializeAtomic(d cache.Digest, dst string) error {
	removeDeadTemps(dst, true)
	tmp, err := os.MkdirTemp(filepath.Dir(dst), fmt.Sprintf(".%s.tmp-%d-", filepath.Base(dst), os.Getpid()))
	if err != nil {
		return err
	}
	if err := e.cache.Materialize(d, tmp); err != nil {
		makeRemovable(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		makeRemovable(tmp)
		return err
	}
	old := ""
	if _, err := os.Lstat(dst); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dst, old); err != nil {
			makeRemovable(tmp)
			return err
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		if old != "" {
			os.Rename(old, dst)
		}
		makeRemovable(tmp)
		return err
	}
	if old != "" {
		makeRemovable(old)
	}
	return nil
}

// writeFileAtomic writes an exported file under a temporary name of its
// own and renames it into place: a reader never sees half a file, and two
// builds exporting to one out dir never write through each other's file.
func writeFileAtomic(dst string, b []byte) error {
	f, err := exportTemp(dst)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), dst)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// exportTemp creates the temporary file dst is written to, named after dst
// and this process (".tasks.jsonl.tmp-<pid>-<random>"). It first removes
// the temporaries of dst left by processes that are gone: a build killed
// between writing and renaming leaves one, and nothing else would ever
// delete it from the out dir. Another live build's temporary is never
// touched (its pid is alive), so builds sharing an out dir stay safe.
func exportTemp(dst string) (*os.File, error) {
	removeDeadTemps(dst, false)
	return os.CreateTemp(filepath.Dir(dst), fmt.Sprintf(".%s.tmp-%d-*", filepath.Base(dst), os.Getpid()))
}

// removeDeadTemps removes the temporaries of dst (files, or with dirs the
// trees of materializeAtomic) whose process is gone.
func removeDeadTemps(dst string, dirs bool) {
	dir, prefix := filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, ent := range entries {
		rest, ok := strings.CutPrefix(ent.Name(), prefix)
		if !ok || ent.IsDir() != dirs {
			continue
		}
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || processAlive(pid) {
			continue
		}
		if dirs {
			makeRemovable(filepath.Join(dir, ent.Name()))
		} else {
			os.Remove(filepath.Join(dir, ent.Name()))
		}
	}
}
