package checkout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/schemas"
)

// checkoutGit writes the files of a pinned commit into dir through a bare
// mirror kept under the cache's state dir.
func checkoutGit(ctx context.Context, rc *engine.RunContext, cfg Config, dir string) (schemas.Provenance, error) {
	mirror, err := ensureMirror(ctx, rc, cfg.Git, cfg.Commit)
	if err != nil {
		return schemas.Provenance{}, err
	}
	full, err := git(ctx, mirror, "rev-parse", "--verify", cfg.Commit+"^{commit}")
	if err != nil {
		return schemas.Provenance{}, fmt.Errorf("commit %s in %s: %s", cfg.Commit, cfg.Git, full)
	}
	if err := extractCommit(ctx, mirror, cfg.Commit, dir); err != nil {
		return schemas.Provenance{}, err
	}
	rc.SetLabel(shortCommit(cfg.Commit))
	return schemas.Provenance{Kind: "git", Repo: gitRepoName(cfg.Git), URL: cfg.Git, Commit: full}, nil
}

// gitRepoName is owner/name for a hosted repository URL
// (https://host/owner/name.git, git@host:owner/name), else the URL's last
// path element.
func gitRepoName(remote string) string {
	p := remote
	if u, err := url.Parse(remote); err == nil && u.Host != "" {
		p = u.Path
	} else if _, after, ok := strings.Cut(remote, ":"); ok && !strings.Contains(remote, "://") {
		p = after // scp-like git@host:owner/name
	}
	p = strings.TrimSuffix(strings.Trim(p, "/"), ".git")
	parts := strings.Split(p, "/")
	if len(parts) >= 2 {
		return parts[len(parts)-2] + "/" + parts[len(parts)-1]
	}
	return parts[len(parts)-1]
}

// ensureMirror returns a bare mirror of url that contains commit, cloning
// or fetching only when needed.
func ensureMirror(ctx context.Context, rc *engine.RunContext, url, commit string) (string, error) {
	sum := sha256.Sum256([]byte(url))
	base, err := stateDir(rc, "git")
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
	terr := untar(stdout, dir, true)
	io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git archive %s: %v: %s", commit, err, stderr.String())
	}
	return terr
}
