package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/osbench/osbench/engine/cache"
)

// export copies a step's results named by its Exports into the out dir.
func (e *Engine) export(s *Step, rec *cache.ActionRecord) error {
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
			os.RemoveAll(dst)
			if err := e.cache.Materialize(o.Digest, dst); err != nil {
				return err
			}
			continue
		}
		b, err := a.Bytes(x.Output)
		if err != nil {
			return fmt.Errorf("export %s of %s: %w", x.Output, s.ID, err)
		}
		if err := writeFileAtomic(dst, b); err != nil {
			return err
		}
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
	dir, prefix := filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-"
	if entries, err := os.ReadDir(dir); err == nil {
		for _, ent := range entries {
			rest, ok := strings.CutPrefix(ent.Name(), prefix)
			if !ok || ent.IsDir() {
				continue
			}
			pidText, _, ok := strings.Cut(rest, "-")
			pid, err := strconv.Atoi(pidText)
			if !ok || err != nil || pid <= 0 || processAlive(pid) {
				continue
			}
			os.Remove(filepath.Join(dir, ent.Name()))
		}
	}
	return os.CreateTemp(dir, fmt.Sprintf("%s%d-*", prefix, os.Getpid()))
}
