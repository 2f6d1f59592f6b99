package checkout

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/ulikunitz/xz"
)

// unpackArchive extracts the tarball (plain, gzip, xz or bzip2) or zip at
// file into dir, which must not exist yet. The format is told by the
// bytes, not the name, because registries and mirrors name files freely.
// When every entry lies under one top-level directory (name-1.0/…), that
// directory becomes dir: the tree is the project, not its wrapper.
func unpackArchive(file, dir string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	tmp := dir + ".unpack"
	os.RemoveAll(tmp)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := unpackInto(f, file, tmp); err != nil {
		return fmt.Errorf("unpack %s: %w", filepath.Base(file), err)
	}
	root, err := singleTopDir(tmp)
	if err != nil {
		return err
	}
	return os.Rename(root, dir)
}

func unpackInto(f *os.File, name, dir string) error {
	br := bufio.NewReader(f)
	magic, _ := br.Peek(6)
	switch {
	case bytes.HasPrefix(magic, []byte("PK\x03\x04")), bytes.HasPrefix(magic, []byte("PK\x05\x06")):
		st, err := f.Stat()
		if err != nil {
			return err
		}
		return unzip(f, st.Size(), dir)
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return err
		}
		return untar(zr, dir, false)
	case bytes.HasPrefix(magic, []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}):
		xr, err := xz.NewReader(br)
		if err != nil {
			return err
		}
		return untar(xr, dir, false)
	case bytes.HasPrefix(magic, []byte("BZh")):
		return untar(bzip2.NewReader(br), dir, false)
	default:
		// A plain tar has "ustar" at offset 257; let the reader say whether
		// it is one.
		if err := untar(br, dir, false); err != nil {
			return fmt.Errorf("not a tarball (plain, gzip, xz or bzip2) or zip: %w", err)
		}
		return nil
	}
}

// singleTopDir returns dir's only entry when it is a directory, else dir.
func singleTopDir(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	if len(entries) == 1 && entries[0].IsDir() {
		return filepath.Join(dir, entries[0].Name()), nil
	}
	return dir, nil
}

// entryPath is where an archive entry lands under dir, or an error when its
// name would put it anywhere else.
func entryPath(dir, name string) (string, error) {
	clean := path.Clean(strings.TrimPrefix(strings.ReplaceAll(name, "\\", "/"), "./"))
	if clean == "." || clean == ".." || strings.HasPrefix(clean, "../") || path.IsAbs(clean) || strings.Contains(clean, ":") {
		return "", fmt.Errorf("archive entry %q escapes the checkout", name)
	}
	return filepath.Join(dir, filepath.FromSlash(clean)), nil
}

// linkInside reports whether a symbolic link at rel (slash-separated,
// relative to the tree's root) pointing at target stays inside the tree.
func linkInside(rel, target string) bool {
	if path.IsAbs(target) || strings.Contains(target, "\\") {
		return false
	}
	joined := path.Join(path.Dir(rel), target)
	return joined != ".." && !strings.HasPrefix(joined, "../")
}

// untar extracts a tar stream into dir. anyLinks keeps every symbolic link
// as it is (a git commit's own links); otherwise a link that points out of
// the tree is refused, since a downloaded archive is untrusted.
func untar(r io.Reader, dir string, anyLinks bool) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag == tar.TypeXGlobalHeader {
			continue // git archive's pax header holds the commit id; nothing to write.
		}
		p, err := entryPath(dir, h.Name)
		if err != nil {
			return err
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg: // tar.Reader reports the old TypeRegA as TypeReg
			if err := writeFile(p, tr, h.Mode&0o111 != 0); err != nil {
				return err
			}
		case tar.TypeLink:
			// A hard link names an earlier entry; its content is copied, so
			// the tree holds plain files only.
			from, err := entryPath(dir, h.Linkname)
			if err != nil {
				return err
			}
			src, err := os.Open(from)
			if err != nil {
				return fmt.Errorf("archive entry %q links to %q, which is not an earlier file", h.Name, h.Linkname)
			}
			st, _ := src.Stat()
			err = writeFile(p, src, st != nil && st.Mode()&0o111 != 0)
			src.Close()
			if err != nil {
				return err
			}
		case tar.TypeSymlink:
			rel, _ := filepath.Rel(dir, p)
			if !anyLinks && !linkInside(filepath.ToSlash(rel), h.Linkname) {
				return fmt.Errorf("archive entry %q is a link to %q, outside the tree", h.Name, h.Linkname)
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.Symlink(h.Linkname, p); err != nil {
				return err
			}
		default:
			// Devices, FIFOs and the like have no place in a source tree.
		}
	}
}

func unzip(f io.ReaderAt, size int64, dir string) error {
	zr, err := zip.NewReader(f, size)
	if err != nil {
		return err
	}
	for _, e := range zr.File {
		p, err := entryPath(dir, e.Name)
		if err != nil {
			return err
		}
		mode := e.Mode()
		switch {
		case mode.IsDir():
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case mode&os.ModeSymlink != 0:
			return fmt.Errorf("zip entry %q is a symbolic link; zips with links are not supported", e.Name)
		case mode.IsRegular():
			rc, err := e.Open()
			if err != nil {
				return err
			}
			err = writeFile(p, rc, mode&0o111 != 0)
			rc.Close()
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// writeFile creates p (and its directories) with r's bytes; a file that
// exists already is an archive naming one path twice, which is refused.
func writeFile(p string, r io.Reader, executable bool) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if executable {
		mode = 0o755
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("archive names %s twice", p)
	}
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
