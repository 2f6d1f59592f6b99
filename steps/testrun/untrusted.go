package testrun

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// maxReportSize bounds a file the tested code wrote (a coverage profile,
// a report): real ones are megabytes; a patch must not fill memory.
const maxReportSize = 512 << 20

// errNotRegular is a report path holding something other than a plain
// file: a symbolic link, a FIFO, a device — what a hostile patch plants to
// make osbench, which may run as root, read another file or block forever.
var errNotRegular = errors.New("not a regular file")

// readUntrusted reads rel (slash-separated, relative to repo) as written by
// the code under test: through an os.Root of repo, so no path or link can
// lead outside it; only a regular file, never through a link (O_NOFOLLOW);
// never blocking on a FIFO (O_NONBLOCK); at most maxReportSize bytes. A
// missing file is fs.ErrNotExist. Errors never quote the file's content.
func readUntrusted(repo, rel string) ([]byte, error) {
	root, err := os.OpenRoot(repo)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	name := filepath.FromSlash(rel)
	st, err := root.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", rel, errNotRegular, st.Mode().Type())
	}
	f, err := root.OpenFile(name, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	defer f.Close()
	// Lstat and open are two steps; the file itself decides.
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", rel, errNotRegular)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxReportSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxReportSize {
		return nil, fmt.Errorf("%s: larger than %d bytes", rel, maxReportSize)
	}
	return b, nil
}

// isMissing reports whether err says the file is not there.
func isMissing(err error) bool { return errors.Is(err, fs.ErrNotExist) }
