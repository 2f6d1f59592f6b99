package cache

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// writeAtomic streams r into a temp file under tmpDir, fsyncs it and renames
// it to dst. On any error the temp file is removed and dst is untouched, so a
// crash or a kill at any moment leaves either the old entry or the new one,
// never a half-written file. syncDir also fsyncs dst's directory, making the
// rename itself durable; action records use it because they are what makes
// blobs reachable.
func writeAtomic(tmpDir, dst string, r io.Reader, syncDir bool) (n int64, err error) {
	f, err := os.CreateTemp(tmpDir, "w-*")
	if err != nil {
		return 0, err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if n, err = io.Copy(f, r); err != nil {
		return n, fmt.Errorf("write %s: %w", dst, err)
	}
	if err = f.Sync(); err != nil {
		return n, err
	}
	if err = f.Close(); err != nil {
		return n, err
	}
	if err = os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return n, err
	}
	if err = os.Rename(tmp, dst); err != nil {
		return n, err
	}
	if syncDir {
		if d, derr := os.Open(filepath.Dir(dst)); derr == nil {
			// Best effort: some filesystems refuse to fsync a directory.
			_ = d.Sync()
			d.Close()
		}
	}
	return n, nil
}
