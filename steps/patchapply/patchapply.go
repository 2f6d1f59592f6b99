// Package patchapply is the "apply" step kind of an evaluation (DESIGN
// §2.7, §8): it applies an agent's patch, which is untrusted, to a task's
// masked repository. The patch's file names are judged before any tool
// sees it (nothing absolute, no "..", no .git, no writing through or
// creating links that leave the repository); it is then applied in a
// throw-away git repository by git apply, git apply --3way, or GNU patch
// with fuzz, the first that works; the links it leaves are followed; and
// the test files it touched are put back to the task's version, since the
// evaluation never runs an agent's tests.
//
// A patch that is refused or does not apply is a verdict, recorded in
// apply.json and cached like any result; only trouble with the tools or
// the cache is an error.
package patchapply

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/plugins/deps"
	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/plugins/taskpkg"
	"github.com/osbench/osbench/schemas"
)

// Kind is the step kind's name.
const Kind = "apply"

// InputSource is the input holding the task's repository, a tree result
// named "source".
const InputSource = "source"

// The step's results: apply.json always, the patched repository only when
// the patch applied.
const (
	OutputApply  = "apply.json"
	OutputSource = "source"
)

// sideLog is the side artifact holding every command run and its output.
const sideLog = "apply.log"

// Config is the apply step's configuration.
type Config struct {
	InstanceID string `json:"instance_id"`
	// Patch is the hex SHA-256 of the patch, stored in the cache by the
	// caller.
	Patch string `json:"patch"`
	// Restore are directories of the task's tree that are not task code
	// (the manifest's extra_source trees: a vendored test framework): every
	// file of them the patch touches is put back, like a test file.
	Restore []string `json:"restore,omitempty"`
}

type kind struct{}

func init() { engine.RegisterKind(kind{}) }

func (kind) Name() string { return Kind }

// Version 2: test code inside source files (Rust's #[cfg(test)] items and
// the files of #[cfg(test)] mod declarations) is put back too.
// Version 3: a patch that adds a dependency outside the task's locked set
// is rejected (deps.Outside).
func (kind) Version() string { return "3" }

// outsideReason is the rejection of a patch adding dependencies.
func outsideReason(outside []string) string {
	if len(outside) == 1 {
		return "patch adds dependency " + outside[0] + " not in the task's locked set"
	}
	return "patch adds dependencies " + strings.Join(outside, ", ") + " not in the task's locked set"
}

func (kind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	patch, err := rc.Blob(cache.Digest(cfg.Patch))
	if err != nil {
		return fmt.Errorf("patch of %s: %w", cfg.InstanceID, err)
	}
	src, err := rc.Input(InputSource)
	if err != nil {
		return err
	}
	pristine := filepath.Join(rc.WorkDir, "pristine")
	if err := src.Materialize("source", pristine); err != nil {
		return err
	}
	log, err := rc.SideWriter(sideLog)
	if err != nil {
		return err
	}
	res, tree, err := evaluate(ctx, patch, pristine, filepath.Join(rc.WorkDir, "repo"), log, cfg.Restore...)
	if cerr := log.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if tree != "" {
		if err := rc.PutTree(OutputSource, tree, cache.SkipVCS); err != nil {
			return err
		}
	}
	rc.SetLabel(label(res))
	return rc.PutJSON(OutputApply, res)
}

// evaluate applies patch to the task's files (pristine, left untouched) in
// a git repository made at repo. It returns the verdict and, when the
// patch applied, the directory holding the patched tree.
func evaluate(ctx context.Context, patch []byte, pristine, repo string, log io.Writer, restoreDirs ...string) (schemas.ApplyResult, string, error) {
	res := schemas.ApplyResult{Files: []string{}, RestoredTestFiles: []string{}}
	if len(strings.TrimSpace(string(patch))) == 0 {
		res.Outcome, res.Method = schemas.ApplyApplied, schemas.ApplyEmpty
		return res, pristine, nil
	}
	headers, err := parsePatch(patch)
	if err != nil {
		res.Outcome, res.Reason = schemas.OutcomePatchFailed, "cannot read the patch's file names: "+err.Error()
		return res, "", nil
	}
	res.Files = touchedPaths(headers)
	reject := func(reason string) (schemas.ApplyResult, string, error) {
		res.Outcome, res.Reason = schemas.OutcomePatchRejected, reason
		return res, "", nil
	}
	if reason := checkNames(headers); reason != "" {
		return reject(reason)
	}
	if reason, err := checkRepoPaths(pristine, headers); err != nil || reason != "" {
		if err != nil {
			return res, "", err
		}
		return reject(reason)
	}

	if _, err := taskpkg.WriteRepo(repo, pristine); err != nil {
		return res, "", err
	}
	a := &applier{repo: repo, log: log}
	if err := a.prepare(); err != nil {
		return res, "", err
	}
	method, message, err := a.apply(ctx, patch)
	if err != nil {
		return res, "", err
	}
	if method == "" {
		res.Outcome, res.Reason = schemas.OutcomePatchFailed, message
		return res, "", nil
	}
	if reason, err := checkLinks(repo, pristine); err != nil || reason != "" {
		if err != nil {
			return res, "", err
		}
		return reject(reason)
	}
	modules, err := testModuleFiles(pristine)
	if err != nil {
		return res, "", err
	}
	isTest := func(p string) bool {
		if lang.IsTestFile(p) || modules[p] {
			return true
		}
		for _, d := range restoreDirs {
			if strings.HasPrefix(p, d+"/") {
				return true
			}
		}
		return false
	}
	restored, reason, err := restoreTestFiles(repo, pristine, res.Files, isTest)
	if err != nil {
		return res, "", err
	}
	if reason != "" {
		return reject(reason)
	}
	code, reason, err := restoreTestCode(repo, pristine, res.Files, isTest)
	if err != nil {
		return res, "", err
	}
	if reason != "" {
		return reject(reason)
	}
	// Builds and tests run offline with the task's locked dependencies:
	// a patch that names another one would fail to build there for a
	// reason nobody would see, or, with a network, download the answer
	// (the task's own published package under another name).
	outside, err := deps.Outside(pristine, repo)
	if err != nil {
		return res, "", fmt.Errorf("locked dependencies: %w", err)
	}
	if len(outside) > 0 {
		return reject(outsideReason(outside))
	}
	res.Outcome, res.Method, res.RestoredTestFiles, res.RestoredTestCode = schemas.ApplyApplied, method, restored, code
	return res, repo, nil
}

// touchedPaths are the sorted, distinct repository paths of every file
// the patch names.
func touchedPaths(h *patchHeaders) []string {
	seen := map[string]bool{}
	paths := []string{}
	for _, f := range h.Files {
		for _, p := range f.Paths() {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	sort.Strings(paths)
	return paths
}

// restoreTestFiles puts every test file among paths (isTest says which)
// back to the task's
// version (pristine), or removes it when the task has none, and returns
// the restored paths (sorted, as paths is). A test file the patch placed
// behind a symbolic link, or under a directory it turned into a file, is a
// rejection reason: restoring it would write through the link, or undo
// the patch's own change.
func restoreTestFiles(repo, pristine string, paths []string, isTest func(string) bool) (restored []string, reason string, err error) {
	restored = []string{}
	for _, p := range paths {
		if !isTest(p) {
			continue
		}
		parent, link, err := blockingParent(repo, p)
		if err != nil {
			return nil, "", err
		}
		switch {
		case link:
			return nil, fmt.Sprintf("test file %q lies behind the symbolic link %q", p, parent), nil
		case parent != "":
			return nil, fmt.Sprintf("test file %q cannot be restored: the patch made %q a file", p, parent), nil
		}
		dst := filepath.Join(repo, filepath.FromSlash(p))
		if err := os.RemoveAll(dst); err != nil {
			return nil, "", err
		}
		if err := copyEntry(dst, filepath.Join(pristine, filepath.FromSlash(p))); err != nil {
			return nil, "", err
		}
		restored = append(restored, p)
	}
	return restored, "", nil
}

// copyEntry copies the file, link or directory at src to dst, making
// dst's parents; a src that does not exist copies nothing.
func copyEntry(dst, src string) error {
	info, err := os.Lstat(src)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if info.IsDir() {
		return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == src {
				return err
			}
			rel, err := filepath.Rel(src, p)
			if err != nil {
				return err
			}
			if d.IsDir() {
				return os.MkdirAll(filepath.Join(dst, rel), 0o755)
			}
			return copyEntry(filepath.Join(dst, rel), p)
		})
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(target, dst)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, info.Mode().Perm())
}

// label is the short summary of a verdict shown with the step.
func label(res schemas.ApplyResult) string {
	if res.Outcome != schemas.ApplyApplied {
		reason, _, _ := strings.Cut(res.Reason, "\n")
		if len(reason) > 100 {
			reason = reason[:100] + "..."
		}
		return res.Outcome + ": " + reason
	}
	if res.Method == schemas.ApplyEmpty {
		return res.Method
	}
	s := fmt.Sprintf("%s, %d files", res.Method, len(res.Files))
	if len(res.Files) == 1 {
		s = fmt.Sprintf("%s, 1 file", res.Method)
	}
	if n := len(res.RestoredTestFiles); n > 0 {
		s += fmt.Sprintf(", %d test files restored", n)
	}
	if n := len(res.RestoredTestCode); n > 0 {
		s += fmt.Sprintf(", %d in-source test items restored", n)
	}
	return s
}
