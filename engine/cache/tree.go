package cache

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// TreeEntry is one file of a tree. Path is slash-separated and relative.
type TreeEntry struct {
	Path   string      `json:"path"`
	Mode   fs.FileMode `json:"mode"` // 0644, 0755, or fs.ModeSymlink
	Digest Digest      `json:"digest"`
	Size   int64       `json:"size"`
}

// Tree is a Merkle manifest of a directory: entries sorted by path. Its own
// digest is the digest of its canonical JSON, so two equal directories have
// equal tree digests wherever they were snapshotted.
type Tree struct {
	Entries []TreeEntry `json:"entries"`
}

// SkipFunc decides whether a relative, slash-separated path is left out of a
// snapshot (a directory skipped is skipped whole).
type SkipFunc func(rel string, d fs.DirEntry) bool

// PutTree snapshots the directory dir into the store and returns the tree
// digest. Only regular files, directories and symlinks are allowed.
func (c *Cache) PutTree(dir string, skip SkipFunc) (Digest, *Tree, error) {
	t, err := c.walkTree(dir, skip, true)
	if err != nil {
		return "", nil, err
	}
	d, err := c.PutBytes(t.Encode())
	return d, t, err
}

// HashTree computes the tree digest of dir without storing anything, so a
// plan can key a local source without copying it.
func HashTree(dir string, skip SkipFunc) (Digest, error) {
	t, err := (*Cache)(nil).walkTree(dir, skip, false)
	if err != nil {
		return "", err
	}
	return Sum(t.Encode()), nil
}

func (c *Cache) walkTree(dir string, skip SkipFunc, store bool) (*Tree, error) {
	t := &Tree{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if skip != nil && skip(rel, d) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		e := TreeEntry{Path: rel}
		switch {
		case d.IsDir():
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			e.Mode = fs.ModeSymlink
			e.Size = int64(len(target))
			if store {
				e.Digest, err = c.PutBytes([]byte(target))
			} else {
				e.Digest = Sum([]byte(target))
			}
			if err != nil {
				return err
			}
		case d.Type().IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			e.Mode = 0o644
			if info.Mode()&0o111 != 0 {
				e.Mode = 0o755
			}
			if store {
				e.Digest, e.Size, err = c.PutFile(p)
			} else {
				e.Digest, e.Size, err = hashFile(p)
			}
			if err != nil {
				return err
			}
		default:
			return fmt.Errorf("snapshot %s: %s is neither a file, a directory nor a symlink", dir, rel)
		}
		t.Entries = append(t.Entries, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(t.Entries, func(i, j int) bool { return t.Entries[i].Path < t.Entries[j].Path })
	return t, nil
}

func hashFile(p string) (Digest, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	hr := newHashingReader(f)
	if _, err := io.Copy(io.Discard, hr); err != nil {
		return "", 0, err
	}
	return hr.digest(), hr.n, nil
}

// Encode is the canonical JSON whose digest names the tree.
func (t *Tree) Encode() []byte {
	b, _ := json.Marshal(t) // cannot fail: plain strings and numbers
	return b
}

// ReadTree loads and checks the tree manifest d.
func (c *Cache) ReadTree(d Digest) (*Tree, error) {
	b, err := c.ReadBytes(d)
	if err != nil {
		return nil, err
	}
	return c.parseTree(d, b)
}

// readTreeLocal is ReadTree without falling through to a remote.
func (c *Cache) readTreeLocal(d Digest) (*Tree, error) {
	b, err := c.readBytesLocal(d)
	if err != nil {
		return nil, err
	}
	return c.parseTree(d, b)
}

// parseTree decodes and checks the manifest b of tree d.
func (c *Cache) parseTree(d Digest, b []byte) (*Tree, error) {
	var t Tree
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, c.corrupt(d, "tree manifest does not decode")
	}
	links := map[string]bool{}
	for _, e := range t.Entries {
		if !safeRelPath(e.Path) || !e.Digest.Valid() {
			return nil, fmt.Errorf("tree %s: unsafe or invalid entry %q", d.Short(), e.Path)
		}
		if e.Mode&fs.ModeSymlink != 0 {
			links[e.Path] = true
		}
	}
	// An entry below a link would be written through it, wherever the link
	// points (a tree from a remote cache is not to be trusted more).
	if len(links) > 0 {
		for _, e := range t.Entries {
			for dir := path.Dir(e.Path); dir != "."; dir = path.Dir(dir) {
				if links[dir] {
					return nil, fmt.Errorf("tree %s: entry %q lies below the symbolic link %q", d.Short(), e.Path, dir)
				}
			}
		}
	}
	return &t, nil
}

// safeRelPath rejects paths that would leave the destination directory.
func safeRelPath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || len(p) > 1 && p[1] == ':' {
		return false
	}
	clean := path.Clean(p)
	return clean == p && clean != ".." && !strings.HasPrefix(clean, "../")
}

// Materialize writes tree d into dst (which must exist), verifying every
// blob on the way. A corrupt blob yields *CorruptError.
func (c *Cache) Materialize(d Digest, dst string) error {
	t, err := c.ReadTree(d)
	if err != nil {
		return err
	}
	for _, e := range t.Entries {
		p := filepath.Join(dst, filepath.FromSlash(e.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if e.Mode&fs.ModeSymlink != 0 {
			target, err := c.ReadBytes(e.Digest)
			if err != nil {
				return err
			}
			if err := os.Symlink(string(target), p); err != nil {
				return err
			}
			continue
		}
		if err := c.materializeFile(e, p); err != nil {
			return err
		}
	}
	return nil
}

func (c *Cache) materializeFile(e TreeEntry, p string) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, e.Mode.Perm())
	if err != nil {
		return err
	}
	n, err := c.CopyTo(f, e.Digest)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != e.Size {
		err = c.corrupt(e.Digest, fmt.Sprintf("size %d, want %d", n, e.Size))
	}
	return err
}

// ReadTreeFile returns one file of tree d by its relative path.
func (c *Cache) ReadTreeFile(d Digest, rel string) ([]byte, error) {
	t, err := c.ReadTree(d)
	if err != nil {
		return nil, err
	}
	i := sort.Search(len(t.Entries), func(i int) bool { return t.Entries[i].Path >= rel })
	if i == len(t.Entries) || t.Entries[i].Path != rel || t.Entries[i].Mode&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("tree %s has no file %s: %w", d.Short(), rel, fs.ErrNotExist)
	}
	return c.ReadBytes(t.Entries[i].Digest)
}
