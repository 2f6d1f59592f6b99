package patchapply

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// maxLinkHops bounds how many symbolic links one path may go through, as
// the kernel's ELOOP does.
const maxLinkHops = 40

// checkNames judges every name and link target the headers mention,
// without looking at any file. It returns why the patch is rejected, or ""
// when nothing reaches outside the repository.
func checkNames(h *patchHeaders) string {
	for _, f := range h.Files {
		for _, n := range f.Names {
			if why := unsafeName(n.Raw); why != "" {
				return fmt.Sprintf("path %s %s", strconv.Quote(n.Raw), why)
			}
		}
		if f.CreatesLink() {
			if f.LinkTooLong {
				return fmt.Sprintf("symbolic link %s: target longer than %d bytes", strconv.Quote(f.New), maxLinkTarget)
			}
			if why := unsafeLinkTarget(f.New, f.LinkTarget()); why != "" {
				return fmt.Sprintf("symbolic link %s -> %s %s", strconv.Quote(f.New), strconv.Quote(f.LinkTarget()), why)
			}
		}
	}
	for _, n := range h.Stray {
		if why := unsafeName(n.Raw); why != "" {
			return fmt.Sprintf("path %s %s", strconv.Quote(n.Raw), why)
		}
	}
	return ""
}

// unsafeName says why a name a patch gives may not be written, or "".
// Names are judged whole, before any prefix is stripped: a tool that
// strips differently must still find nothing to abuse.
func unsafeName(p string) string {
	switch {
	case p == "":
		return "is empty"
	case strings.ContainsAny(p, "\\"):
		return "contains a backslash"
	case strings.HasPrefix(p, "/"):
		return "is absolute"
	case hasDrive(p):
		return "has a drive letter"
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return "contains a control character"
		}
	}
	for _, c := range strings.Split(p, "/") {
		switch {
		case c == "..":
			return "leaves the repository (..)"
		case isGitDir(c):
			return "reaches into git's metadata (.git)"
		}
	}
	return ""
}

// hasDrive reports a Windows drive ("C:") at the start of p.
func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z')
}

// isGitDir reports a path component that names git's metadata directory on
// some file system: case-insensitive, trailing dots and spaces ignored (as
// Windows ignores them), and the 8.3 short name.
func isGitDir(c string) bool {
	c = strings.ToLower(strings.TrimRight(c, ". "))
	return c == ".git" || c == "git~1"
}

// unsafeLinkTarget says why a symbolic link at link (a repository path)
// with the given target would point outside the repository, or "". Only
// the text is judged; links already in the repository are followed after
// the patch is applied (linkEscapes).
func unsafeLinkTarget(link, target string) string {
	switch {
	case strings.ContainsAny(target, "\\"):
		return "contains a backslash"
	case strings.HasPrefix(target, "/"):
		return "is absolute"
	case hasDrive(target):
		return "has a drive letter"
	case strings.ContainsAny(target, "\x00\n"):
		return "contains a control character"
	}
	resolved := path.Clean(path.Join(path.Dir(link), target))
	if resolved == ".." || strings.HasPrefix(resolved, "../") {
		return "points outside the repository"
	}
	for _, c := range strings.Split(resolved, "/") {
		if isGitDir(c) {
			return "points into git's metadata (.git)"
		}
	}
	return ""
}

// checkRepoPaths judges the patch's paths against the repository as it is
// (root): a path may not go through a symbolic link, and may name an
// existing link only to replace it as a link or move or delete it whole —
// never to edit it as a regular file, which a tool might follow.
func checkRepoPaths(root string, h *patchHeaders) (string, error) {
	for _, f := range h.Files {
		for _, p := range f.Paths() {
			parent, link, err := blockingParent(root, p)
			if err != nil {
				return "", err
			}
			if link {
				return fmt.Sprintf("path %s goes through the symbolic link %s", strconv.Quote(p), strconv.Quote(parent)), nil
			}
			info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				continue
			}
			if err != nil {
				return "", err
			}
			if info.Mode()&fs.ModeSymlink == 0 {
				continue
			}
			editsAsLink := p == f.Old && f.OldMode == modeSymlink
			movesWhole := p == f.Old && f.Hunks == 0
			if !editsAsLink && !movesWhole {
				return fmt.Sprintf("path %s is a symbolic link in the repository that the patch writes as a regular file", strconv.Quote(p)), nil
			}
		}
	}
	return "", nil
}

// blockingParent returns the first parent directory of rel (a repository
// path) under root that is not a plain directory: a symbolic link (link is
// true) or some other file. It returns "" when every existing parent is a
// directory.
func blockingParent(root, rel string) (parent string, link bool, err error) {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		parent := strings.Join(parts[:i], "/")
		info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(parent)))
		if errors.Is(err, fs.ErrNotExist) {
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		if !info.IsDir() {
			return parent, info.Mode()&fs.ModeSymlink != 0, nil
		}
	}
	return "", false, nil
}

// checkLinks walks the patched repository and follows every symbolic link
// that is new or different from the task's (pristine): each must resolve
// inside the repository, whatever links it passes through. Links the task
// already had are the task's business, not the patch's.
func checkLinks(repo, pristine string) (string, error) {
	var reason string
	err := filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		rel, err := filepath.Rel(repo, p)
		if err != nil {
			return err
		}
		target, err := os.Readlink(p)
		if err != nil {
			return err
		}
		if old, err := os.Readlink(filepath.Join(pristine, rel)); err == nil && old == target {
			return nil
		}
		escapes, err := linkEscapes(repo, filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		if escapes {
			reason = fmt.Sprintf("symbolic link %s -> %s points outside the repository", strconv.Quote(filepath.ToSlash(rel)), strconv.Quote(target))
			return filepath.SkipAll
		}
		return nil
	})
	return reason, err
}

// linkEscapes resolves rel under root component by component, following
// symbolic links as the kernel would but with root as the top: it reports
// whether the resolution leaves root (an absolute target, a ".." above
// root, or too many links). Components that do not exist are taken as
// written.
func linkEscapes(root, rel string) (bool, error) {
	todo := strings.Split(rel, "/")
	var done []string
	hops := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				return true, nil
			}
			done = done[:len(done)-1]
			continue
		}
		next := append(append([]string(nil), done...), c)
		full := filepath.Join(root, filepath.FromSlash(strings.Join(next, "/")))
		info, err := os.Lstat(full)
		if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return false, err
		}
		if err != nil || info.Mode()&fs.ModeSymlink == 0 {
			done = next
			continue
		}
		if hops++; hops > maxLinkHops {
			return true, nil
		}
		target, err := os.Readlink(full)
		if err != nil {
			return false, err
		}
		if strings.HasPrefix(target, "/") || strings.Contains(target, "\\") || hasDrive(target) {
			return true, nil
		}
		todo = append(strings.Split(target, "/"), todo...)
	}
	return false, nil
}
