package taskpkg

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotEmpty reports a WriteRepo destination that already holds files.
var ErrNotEmpty = errors.New("destination is not empty")

// WriteRepo copies the files under srcDir into dir and makes dir a fresh
// git repository holding them in exactly one root commit on branch main,
// with no remote and no other refs. It returns the commit's id.
//
// The commit's author, committer, date and message are fixed, and files are
// stored byte for byte, so the same files always give the same commit id.
// Entries named .git are not copied, nor are empty directories (git cannot
// hold them); symbolic links are copied as links; of the permission bits
// only the owner's execute bit is kept, as git does. dir must not exist or
// be empty, and must not lie inside srcDir.
func WriteRepo(dir, srcDir string) (commit string, err error) {
	if err := checkDestination(dir, srcDir); err != nil {
		return "", err
	}
	if err := copyTree(dir, srcDir); err != nil {
		return "", fmt.Errorf("copy %s to %s: %w", srcDir, dir, err)
	}
	if _, err := git(dir, nil, nil, "init", "--quiet", "--template=", "--initial-branch="+branch); err != nil {
		return "", err
	}
	gitDir := filepath.Join(dir, ".git")
	tree, err := writeTree(gitDir, dir, filepath.Join(gitDir, "index"))
	if err != nil {
		return "", err
	}
	identity := []string{
		"GIT_AUTHOR_NAME=" + commitName, "GIT_AUTHOR_EMAIL=" + commitEmail, "GIT_AUTHOR_DATE=" + commitDate,
		"GIT_COMMITTER_NAME=" + commitName, "GIT_COMMITTER_EMAIL=" + commitEmail, "GIT_COMMITTER_DATE=" + commitDate,
	}
	out, err := git(dir, nil, identity, "commit-tree", "--no-gpg-sign", "-m", commitMessage, tree)
	if err != nil {
		return "", err
	}
	commit = strings.TrimSpace(string(out))
	// No reflog: it would record the wall clock. The index keeps the zero
	// stat data it was built with (no refresh): stat data is only git's
	// cache of "unchanged since", so git status compares the contents once
	// and finds the tree clean, while the same files always give the same
	// bytes under .git — two builds of a task export identical repositories.
	if _, err := git(dir, nil, nil, "-c", "core.logAllRefUpdates=false", "update-ref", "refs/heads/"+branch, commit, ""); err != nil {
		return "", err
	}
	return commit, nil
}

// checkDestination accepts a dir that does not exist or is empty and that
// does not lie inside srcDir (copying would then find its own output).
func checkDestination(dir, srcDir string) error {
	info, err := os.Stat(srcDir)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("%s: not a directory", srcDir)
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	absSrc, err := filepath.Abs(srcDir)
	if err != nil {
		return err
	}
	if rel, err := filepath.Rel(absSrc, absDir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s: destination lies inside the source %s", dir, srcDir)
	}
	entries, err := os.ReadDir(dir)
	switch {
	case os.IsNotExist(err):
		return nil
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("%s: %w", dir, ErrNotEmpty)
	}
	return nil
}

// copyTree copies the regular files and symbolic links under src into dst,
// leaving out entries named .git.
func copyTree(dst, src string) error {
	entries, err := listTree(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		from := filepath.Join(src, filepath.FromSlash(e.path))
		to := filepath.Join(dst, filepath.FromSlash(e.path))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := copyEntry(to, from, e.mode); err != nil {
			return err
		}
	}
	return nil
}

// copyEntry copies one file or symbolic link, given its git mode.
func copyEntry(to, from, mode string) error {
	switch mode {
	case modeLink:
		target, err := os.Readlink(from)
		if err != nil {
			return err
		}
		return os.Symlink(target, to)
	case modeExecutable:
		return copyFile(to, from, 0o755)
	}
	return copyFile(to, from, 0o644)
}

func copyFile(to, from string, perm fs.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
