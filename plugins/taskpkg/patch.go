package taskpkg

import (
	"fmt"
	"os"
	"path/filepath"
)

// GoldPatch returns the unified diff that turns the tree maskedDir into the
// tree originalDir, in git's format: "diff --git a/… b/…" headers with
// repository-relative paths (C-quoted, as git does, when a name holds
// quotes, control characters or non-ASCII bytes), full blob ids, mode
// changes, and binary files as "GIT binary patch" hunks. `git apply` in a copy of the masked tree
// reproduces the original byte for byte. Identical trees give "".
//
// Entries named .git are ignored on both sides, so maskedDir may be the
// repository WriteRepo made. Renames are shown as a deletion and an
// addition, which every patch tool understands.
func GoldPatch(maskedDir, originalDir string) (string, error) {
	for _, dir := range []string{maskedDir, originalDir} {
		info, err := os.Stat(dir)
		if err != nil {
			return "", err
		}
		if !info.IsDir() {
			return "", fmt.Errorf("%s: not a directory", dir)
		}
	}
	// Both trees go into a scratch object database outside either
	// directory, so neither is touched.
	scratch, err := os.MkdirTemp("", "osbench-goldpatch-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(scratch)
	gitDir := filepath.Join(scratch, "objects.git")
	if _, err := git(scratch, nil, nil, "init", "--quiet", "--bare", "--template=", gitDir); err != nil {
		return "", err
	}
	masked, err := writeTree(gitDir, maskedDir, filepath.Join(scratch, "masked.index"))
	if err != nil {
		return "", fmt.Errorf("masked tree %s: %w", maskedDir, err)
	}
	original, err := writeTree(gitDir, originalDir, filepath.Join(scratch, "original.index"))
	if err != nil {
		return "", fmt.Errorf("original tree %s: %w", originalDir, err)
	}
	out, err := git(scratch, nil, nil, "--git-dir="+gitDir, "diff-tree", "-r", "--patch", "--binary", "--full-index",
		"--no-renames", "--no-ext-diff", "--no-textconv", "--no-color", "--src-prefix=a/", "--dst-prefix=b/",
		masked, original)
	if err != nil {
		return "", err
	}
	return string(out), nil
}
