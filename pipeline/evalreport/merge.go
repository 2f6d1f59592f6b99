package evalreport

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MergeShards copies the per-instance files of each shard's output
// directory (OUT/<model-dir>/<instance>/…, what `eval --shard I/N` wrote)
// into out, so that Load(out) and Write give the summary a single
// evaluation of every shard's predictions would have written. The shards'
// own summaries are left behind: they are rendered again. A file found in
// two shards must be the same bytes, or the merge stops: one instance
// evaluated twice with different results has no single summary. It
// returns the number of reports copied.
func MergeShards(out string, shards []string) (int, error) {
	n := 0
	for _, dir := range shards {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return n, fmt.Errorf("evalreport: shard %s is not a directory", dir)
		}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			if !strings.Contains(filepath.ToSlash(rel), "/") {
				return nil // the shard's summary.json, summary.md, report.html
			}
			if !d.Type().IsRegular() {
				return fmt.Errorf("evalreport: %s is not a regular file", p)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			dst := filepath.Join(out, rel)
			if old, err := os.ReadFile(dst); err == nil {
				if !bytes.Equal(old, b) {
					return fmt.Errorf("evalreport: %s differs from %s: one instance evaluated differently in two shards", p, dst)
				}
				return nil
			}
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			if filepath.Base(p) == ReportFile {
				n++
			}
			return os.WriteFile(dst, b, 0o644)
		})
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
