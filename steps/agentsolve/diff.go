package agentsolve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/lang"
)

// gitEnv shuts out the machine's and the user's git configuration, so the
// same workspace gives the same patch anywhere, and fixes the identity and
// date of the one commit.
func gitEnv(repo string) []string {
	env := []string{
		"LC_ALL=C", "TZ=UTC", "HOME=" + os.DevNull,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_ATTR_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0", "GIT_CEILING_DIRECTORIES=" + filepath.Dir(repo),
		"GIT_AUTHOR_NAME=osbench", "GIT_AUTHOR_EMAIL=osbench@localhost", "GIT_AUTHOR_DATE=2000-01-01T00:00:00Z",
		"GIT_COMMITTER_NAME=osbench", "GIT_COMMITTER_EMAIL=osbench@localhost", "GIT_COMMITTER_DATE=2000-01-01T00:00:00Z",
	}
	if v, ok := os.LookupEnv("PATH"); ok {
		env = append(env, "PATH="+v)
	}
	return env
}

func git(ctx context.Context, repo string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.autocrlf=false", "-c", "core.fileMode=true",
		"-c", "core.symlinks=true", "-c", "core.quotePath=false", "-c", "diff.renames=true"}, args...)...)
	cmd.Dir, cmd.Env = repo, gitEnv(repo)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	return out.Bytes(), nil
}

// initWorkspace gives the workspace a repository of one commit: agents
// that run git status or git diff find the task as their starting point,
// and nothing of the project's history.
func initWorkspace(ctx context.Context, dir string) error {
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "--allow-empty", "-m", "task"}} {
		if _, err := git(ctx, dir, args...); err != nil {
			return fmt.Errorf("workspace: %w", err)
		}
	}
	return nil
}

// diffResult is what the diff left out and why.
type diffResult struct {
	files        []string
	droppedTests []string
	refused      []Refusal
}

// diffWorkspace makes the patch from the masked tree to what the agent left:
// in scratch, a repository of the masked tree (from the cache) committed
// once, its files replaced by the workspace's (its .git and every other
// .git left out), staged with git add -A, test files and refused files
// put back, then git diff --cached --binary: new, deleted, renamed, binary,
// mode and link changes included.
func diffWorkspace(ctx context.Context, src *engine.Artifacts, workspace, scratch string, maxBytes int64) ([]byte, diffResult, error) {
	var d diffResult
	repo := filepath.Join(scratch, "repo")
	if err := src.Materialize("source", repo); err != nil {
		return nil, d, err
	}
	if err := initWorkspace(ctx, repo); err != nil {
		return nil, d, err
	}
	if err := clearExceptGit(repo); err != nil {
		return nil, d, err
	}
	refused, err := copyWorkspace(workspace, repo, maxBytes)
	if err != nil {
		return nil, d, err
	}
	d.refused = refused
	if _, err := git(ctx, repo, "add", "-A"); err != nil {
		return nil, d, err
	}
	// Put back what is refused and every test file the agent touched:
	// the index then holds the masked version (or nothing, for a new
	// file), so the diff does not carry them.
	out, err := git(ctx, repo, "diff", "--cached", "--name-only", "--no-renames", "-z", "HEAD")
	if err != nil {
		return nil, d, err
	}
	refusedPath := map[string]bool{}
	for _, r := range refused {
		refusedPath[r.Path] = true
	}
	var putBack []string
	for _, p := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		switch {
		case p == "":
		case refusedPath[p] || underRefused(p, refusedPath):
			putBack = append(putBack, p)
		case lang.IsTestFile(p):
			putBack = append(putBack, p)
			d.droppedTests = append(d.droppedTests, p)
		}
	}
	if len(putBack) > 0 {
		if _, err := git(ctx, repo, append([]string{"reset", "-q", "HEAD", "--"}, putBack...)...); err != nil {
			return nil, d, err
		}
	}
	patch, err := git(ctx, repo, "diff", "--cached", "--binary", "-M", "HEAD")
	if err != nil {
		return nil, d, err
	}
	names, err := git(ctx, repo, "diff", "--cached", "--name-only", "-M", "-z", "HEAD")
	if err != nil {
		return nil, d, err
	}
	d.files = []string{}
	for _, p := range strings.Split(strings.TrimSuffix(string(names), "\x00"), "\x00") {
		if p != "" {
			d.files = append(d.files, p)
		}
	}
	if d.droppedTests == nil {
		d.droppedTests = []string{}
	}
	if d.refused == nil {
		d.refused = []Refusal{}
	}
	sort.Strings(d.droppedTests)
	return patch, d, nil
}

// underRefused: a refused directory (a nested .git) refuses what is below.
func underRefused(p string, refused map[string]bool) bool {
	for dir := path.Dir(p); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if refused[dir] {
			return true
		}
	}
	return false
}

func clearExceptGit(repo string) error {
	entries, err := os.ReadDir(repo)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == ".git" {
			continue
		}
		if err := os.RemoveAll(filepath.Join(repo, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// copyWorkspace copies the agent's files into repo without following any
// link: links are copied as links (their targets are the patch's business,
// judged again when it is applied), regular files by content with their
// executable bit. Anything else, any .git below the top, and files over
// maxBytes are refused and listed.
func copyWorkspace(workspace, repo string, maxBytes int64) ([]Refusal, error) {
	var refused []Refusal
	err := filepath.WalkDir(workspace, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(workspace, p)
		if err != nil {
			return err
		}
		if rel == "." {
			return nil
		}
		slash := filepath.ToSlash(rel)
		if e.Name() == ".git" {
			if slash != ".git" {
				refused = append(refused, Refusal{Path: slash, Reason: "a nested git repository is not part of a patch"})
			}
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		dst := filepath.Join(repo, rel)
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch mode := info.Mode(); {
		case mode.IsDir():
			return os.MkdirAll(dst, 0o755)
		case mode&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case mode.IsRegular():
			if info.Size() > maxBytes {
				refused = append(refused, Refusal{Path: slash, Reason: fmt.Sprintf("%d bytes, over the limit of %d", info.Size(), maxBytes)})
				return nil
			}
			return copyFile(p, dst, mode.Perm()&0o111 != 0, maxBytes)
		default:
			refused = append(refused, Refusal{Path: slash, Reason: "not a regular file, directory or link (" + mode.Type().String() + ")"})
			return nil
		}
	})
	return refused, err
}

func copyFile(src, dst string, executable bool, maxBytes int64) error {
	in, err := openNoFollow(src)
	if err != nil {
		return err
	}
	defer in.Close()
	perm := os.FileMode(0o644)
	if executable {
		perm = 0o755
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	// Bounded: the file was measured before it was opened.
	if _, err := io.Copy(out, io.LimitReader(in, maxBytes+1)); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
