package taskpkg

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The identity and time of every root commit WriteRepo makes. They are part
// of the commit hash: changing one changes every task's base_commit.
const (
	commitName    = "osbench"
	commitEmail   = "osbench@osbench.invalid"
	commitDate    = "946684800 +0000" // 2000-01-01T00:00:00Z
	commitMessage = "Initial commit"
	branch        = "main"
)

// hashBatch bounds how many paths one `git hash-object` call receives, far
// below any platform's command-line limit.
const hashBatch = 200

// git runs the git command with dir as its working directory (if not
// empty), stdin as its input, and extra added to its environment. The
// caller's and the machine's git configuration (user name, hooks, signing,
// autocrlf, attributes files) is shut out, and so are GIT_* variables that
// would point git at another repository.
func git(dir string, stdin []byte, extra []string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-c", "core.attributesFile=" + os.DevNull}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(isolatedEnv(), extra...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

func isolatedEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"LC_ALL=C",
	)
}

// The modes git records for the entries of a tree.
const (
	modeFile       = "100644"
	modeExecutable = "100755"
	modeLink       = "120000"
)

// treeEntry is one file of a directory tree as git stores it.
type treeEntry struct {
	path string // relative to the tree's root, "/"-separated
	mode string // modeFile, modeExecutable or modeLink
}

// listTree lists the files and symbolic links under root, skipping every
// entry named .git (a repository's own metadata, or a nested repository
// that git would store as a submodule link). Empty directories have no
// place in a git tree and are left out; any other kind of file is an error.
func listTree(root string) ([]treeEntry, error) {
	var entries []treeEntry
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" && path != root {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if strings.ContainsAny(rel, "\n\x00") {
			return fmt.Errorf("%s: file names with newlines cannot be stored", path)
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			entries = append(entries, treeEntry{rel, modeLink})
		case d.Type().IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			mode := modeFile
			if info.Mode().Perm()&0o100 != 0 { // git keeps the owner's execute bit only
				mode = modeExecutable
			}
			entries = append(entries, treeEntry{rel, mode})
		default:
			return fmt.Errorf("%s: %v is neither a regular file nor a symbolic link", path, d.Type())
		}
		return nil
	})
	return entries, err
}

// writeTree stores the files under root in the object database of gitDir,
// byte for byte (no filters, no line-ending conversion), through the index
// file index, and returns the id of the resulting tree.
func writeTree(gitDir, root, index string) (string, error) {
	entries, err := listTree(root)
	if err != nil {
		return "", err
	}
	ids, err := hashObjects(gitDir, root, entries)
	if err != nil {
		return "", err
	}
	var info bytes.Buffer
	for i, e := range entries {
		fmt.Fprintf(&info, "%s %s\t%s\x00", e.mode, ids[i], e.path)
	}
	env := []string{"GIT_INDEX_FILE=" + index}
	if _, err := git(root, info.Bytes(), env, "--git-dir="+gitDir, "update-index", "-z", "--add", "--index-info"); err != nil {
		return "", err
	}
	out, err := git(root, nil, env, "--git-dir="+gitDir, "write-tree")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// hashObjects writes the blob of every entry (a file's bytes, a link's
// target) and returns their ids, in the order of entries.
func hashObjects(gitDir, root string, entries []treeEntry) ([]string, error) {
	ids := make([]string, len(entries))
	var batch []int // indexes of regular files waiting for hash-object
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		args := []string{"--git-dir=" + gitDir, "hash-object", "-w", "--no-filters", "--"}
		for _, i := range batch {
			args = append(args, filepath.FromSlash(entries[i].path))
		}
		out, err := git(root, nil, nil, args...)
		if err != nil {
			return err
		}
		hashes := strings.Fields(string(out))
		if len(hashes) != len(batch) {
			return fmt.Errorf("git hash-object: %d ids for %d files", len(hashes), len(batch))
		}
		for k, i := range batch {
			ids[i] = hashes[k]
		}
		batch = batch[:0]
		return nil
	}
	for i, e := range entries {
		if e.mode != modeLink {
			if batch = append(batch, i); len(batch) == hashBatch {
				if err := flush(); err != nil {
					return nil, err
				}
			}
			continue
		}
		target, err := os.Readlink(filepath.Join(root, filepath.FromSlash(e.path)))
		if err != nil {
			return nil, err
		}
		out, err := git(root, []byte(filepath.ToSlash(target)), nil, "--git-dir="+gitDir, "hash-object", "-w", "--stdin")
		if err != nil {
			return nil, err
		}
		ids[i] = strings.TrimSpace(string(out))
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return ids, nil
}
