// Package checkout is the "checkout" step kind: it turns a repository
// source into a content-addressed tree. A git source is read at its pinned
// commit through a bare mirror kept under the cache (so reruns and further
// states of the same repository need no network); a local directory is
// snapshotted, and its content digest (not its path) is what the key holds.
package checkout

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
)

// Kind is the step kind's name.
const Kind = "checkout"

// LocalPath is the engine.Step.Local entry holding a local source's path.
const LocalPath = "path"

// Config is the checkout step's configuration. Exactly one of Git (with
// Commit) and Tree is set.
type Config struct {
	Git    string `json:"git,omitempty"`
	Commit string `json:"commit,omitempty"`
	// Tree is the digest of a local source directory, computed when the
	// graph is built; the step refuses to snapshot different content.
	Tree string `json:"tree,omitempty"`
}

// SkipVCS leaves version-control metadata out of snapshots.
func SkipVCS(rel string, d fs.DirEntry) bool {
	return d.IsDir() && (d.Name() == ".git" || d.Name() == ".hg" || d.Name() == ".svn")
}

// HashLocal is what the graph builder puts in Config.Tree for a local source.
func HashLocal(dir string) (string, error) {
	d, err := cache.HashTree(dir, SkipVCS)
	return string(d), err
}

type kind struct{}

func init() { engine.RegisterKind(kind{}) }

func (kind) Name() string    { return Kind }
func (kind) Version() string { return "1" }

func (kind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	if cfg.Tree != "" {
		return snapshotLocal(rc, cfg)
	}
	dir := filepath.Join(rc.WorkDir, "src")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	mirror, err := ensureMirror(ctx, rc, cfg.Git, cfg.Commit)
	if err != nil {
		return err
	}
	if err := extractCommit(ctx, mirror, cfg.Commit, dir); err != nil {
		return err
	}
	rc.SetLabel(shortCommit(cfg.Commit))
	return rc.PutTree("source", dir, SkipVCS)
}

func snapshotLocal(rc *engine.RunContext, cfg Config) error {
	path := rc.Step.Local[LocalPath]
	if path == "" {
		return errors.New("local source: no path given")
	}
	if err := rc.PutTree("source", path, SkipVCS); err != nil {
		return err
	}
	a, err := rc.OwnResult("source")
	if err != nil {
		return err
	}
	if string(a.Digest) != cfg.Tree {
		return fmt.Errorf("local source %s changed while osbench was running (tree %s, planned %s); run again", path, a.Digest.Short(), cache.Digest(cfg.Tree).Short())
	}
	rc.SetLabel("tree " + a.Digest.Short())
	return nil
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// ensureMirror returns a bare mirror of url that contains commit, cloning
// or fetching only when needed.
func ensureMirror(ctx context.Context, rc *engine.RunContext, url, commit string) (string, error) {
	sum := sha256.Sum256([]byte(url))
	base, err := rc.StateDir("git")
	if err != nil {
		return "", err
	}
	mirror := filepath.Join(base, hex.EncodeToString(sum[:8])+".git")
	if _, err := os.Stat(filepath.Join(mirror, "HEAD")); err != nil {
		tmp := mirror + fmt.Sprintf(".tmp%d", os.Getpid())
		os.RemoveAll(tmp)
		if out, err := git(ctx, "", "clone", "--quiet", "--mirror", "--", url, tmp); err != nil {
			os.RemoveAll(tmp)
			return "", fmt.Errorf("git clone %s: %v: %s", url, err, out)
		}
		if err := os.Rename(tmp, mirror); err != nil && !exists(mirror) {
			return "", err
		}
		os.RemoveAll(tmp)
	}
	if hasCommit(ctx, mirror, commit) {
		return mirror, nil
	}
	if out, err := git(ctx, mirror, "fetch", "--quiet", "--prune", "origin", "+refs/*:refs/*"); err != nil {
		return "", fmt.Errorf("git fetch %s: %v: %s", url, err, out)
	}
	if !hasCommit(ctx, mirror, commit) {
		// A commit that no ref reaches can still be fetched by hash from most servers.
		if out, err := git(ctx, mirror, "fetch", "--quiet", "origin", commit); err != nil || !hasCommit(ctx, mirror, commit) {
			return "", fmt.Errorf("commit %s not found in %s: %s", commit, url, out)
		}
	}
	return mirror, nil
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func hasCommit(ctx context.Context, mirror, commit string) bool {
	_, err := git(ctx, mirror, "cat-file", "-e", commit+"^{commit}")
	return err == nil
}

func git(ctx context.Context, gitDir string, args ...string) (string, error) {
	if gitDir != "" {
		args = append([]string{"--git-dir=" + gitDir}, args...)
	}
	cmd := exec.CommandContext(ctx, "git", args...)
	// No prompts, no user or system config: a checkout must not depend on
	// who runs it.
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// extractCommit writes the files of commit into dir through `git archive`,
// refusing entries that would land outside dir.
func extractCommit(ctx context.Context, mirror, commit, dir string) error {
	cmd := exec.CommandContext(ctx, "git", "--git-dir="+mirror, "archive", "--format=tar", commit)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	terr := untar(stdout, dir)
	io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git archive %s: %v: %s", commit, err, stderr.String())
	}
	return terr
}

func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Clean(filepath.FromSlash(h.Name))
		if name == "." || filepath.IsAbs(name) || name == ".." || strings.HasPrefix(name, ".."+string(filepath.Separator)) {
			return fmt.Errorf("archive entry %q escapes the checkout", h.Name)
		}
		p := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			mode := os.FileMode(0o644)
			if h.Mode&0o111 != 0 {
				mode = 0o755
			}
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		case tar.TypeSymlink:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.Symlink(h.Linkname, p); err != nil {
				return err
			}
		case tar.TypeXGlobalHeader:
			// git archive's pax header holds the commit id; nothing to write.
		}
	}
}
