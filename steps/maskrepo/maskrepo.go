// Package maskrepo is the "mask" step kind: it turns the complete
// repository (R+) into the masked one (R−) by replacing every verified
// target region with a quiet placeholder (plugins/mask), proves the result
// still builds for the target when the step has a build check, and retries
// with coarser placeholders (whole function bodies) when it does not.
// Results: the masked tree ("source", so a test step can consume it like a
// checkout) and a record of every action (mask.json).
//
// The check runs in a copy of the masked tree, so what a build writes into
// the repository (CMake's build directory, say) never reaches the result.
package maskrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/osbench/osbench/plugins/toolenv"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/plugins/deps"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// Kind is the step kind's name.
const Kind = "mask"

// Record is the mask.json result (schemas.MaskRecord).
type Record = schemas.MaskRecord

// The side artifacts of the mask step: the build checks' logs.
const (
	SideBuildLog     = "build.log"
	SideFineBuildLog = "fine-build.log"
)

// Inputs of a mask step.
const (
	InputSource    = "source"    // the checkout (R+)
	InputVerify    = "verify"    // the regions to mask: the verify step's, or one split step's
	InputToolchain = "toolchain" // the target's toolchain step, for the build check
	// InputSourceCoverage is the source platform's coverage (coverage.json
	// of the covimport step): the lines a mask must not touch.
	InputSourceCoverage = "source_coverage"
)

// Config is the mask step's configuration. The build check runs on the
// target platform's toolchain and executor.
type Config struct {
	Repository string            `json:"repository"`
	Source     string            `json:"source"`
	Target     string            `json:"target"`
	Masker     string            `json:"masker"`
	Language   string            `json:"language"`
	Executor   string            `json:"executor"`
	User       string            `json:"user"`
	Toolchain  string            `json:"toolchain"`
	Env        map[string]string `json:"env"`
	// Check is the command proving the masked repository builds for the
	// target (an argv; its Dir relative to the repository root); nil: none.
	// Always in the key (null for none), as it has been since it existed.
	Check *schemas.Command `json:"check"`
	// LM holds the language-model masker's settings (masker "lm").
	LM map[string]string `json:"lm,omitempty"`
	// LMPrompt is the version of the prompt the model is asked with
	// (lm.MaskPromptVersion); it is configuration so that a new prompt reruns the step.
	LMPrompt string `json:"lm_prompt,omitempty"`
	// Rules names the versions of the language's mask rules
	// (lang.MaskRulesKey; "" while they are all "1"), so a rule change
	// reruns that language's masks only.
	Rules string `json:"rules,omitempty"`
	// CheckTimeout bounds the build check (Go duration) when the check is
	// the platform's build command and its build block has a timeout; "":
	// defaultCheckTimeout.
	CheckTimeout string `json:"check_timeout,omitempty"`
}

type kind struct{}

func init() { engine.RegisterKind(kind{}) }

func (kind) Name() string { return Kind }

// Version 3: source preservation from coverage, no-op masks rejected.
// Version 4: a file the masker cannot handle costs its own regions; the
// build checks' logs are side artifacts, not part of mask.json.
// Version 5: quiet placeholders by construction (whole bodies, early
// returns, neutral errors; plugins/mask).
// Version 6: Go's coarse mode returns nil errors.
// Version 7: test files are plugins/lang's one classification (a Go
// x_tests.go is masked, files under Foo.Tests/ are not); Rust characters
// and lifetimes by lang.RustChar; C# masked (plugins/lang/csharp).
// Version 8: the build check runs offline after osbench's fetch of the
// locked dependencies (plugins/deps, toolenv.Offline).
func (kind) Version() string { return "8" }

func (kind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	rec, err := maskTree(ctx, rc, cfg, []bool{false, true})
	if err != nil {
		return err
	}
	return finish(rc, rec)
}

// maskTree masks the source tree in each of the modes in turn (false:
// fine, true: coarse) until one passes the build check, and puts the
// result's tree; the last mode's tree is put when none does.
func maskTree(ctx context.Context, rc *engine.RunContext, cfg Config, modes []bool) (Record, error) {
	m, err := newMasker(cfg)
	if err != nil {
		return Record{}, err
	}
	vr, err := rc.Input(InputVerify)
	if err != nil {
		return Record{}, err
	}
	var verified schemas.Verified
	if err := vr.DecodeJSON(schemas.RegionsFile, &verified); err != nil {
		return Record{}, err
	}
	src, err := rc.Input(InputSource)
	if err != nil {
		return Record{}, err
	}
	cov, err := rc.Input(InputSourceCoverage)
	if err != nil {
		return Record{}, err
	}
	var sourceCoverage schemas.Coverage
	if err := cov.DecodeJSON("coverage.json", &sourceCoverage); err != nil {
		return Record{}, err
	}
	ran := newExecutedLines(sourceCoverage)
	kept := verified.Kept()
	rec := Record{Masker: cfg.Masker}
	// Masking each region alone is cheap for the rules; a language model
	// is asked once per file, and alone only when the file breaks a rule.
	soloPass := cfg.Masker == "" || cfg.Masker == "rules"
	var repo string
	for i, coarse := range modes {
		repo = filepath.Join(rc.WorkDir, fmt.Sprintf("repo-%v", coarse))
		if err := src.Materialize("source", repo); err != nil {
			return Record{}, err
		}
		rec.Coarse = coarse
		if rec.Files, rec.Actions, rec.Regions, rec.Rejected, err = maskFiles(ctx, m, soloPass, repo, kept, coarse, ran); err != nil {
			return Record{}, err
		}
		if cfg.Check == nil {
			break
		}
		ok, log, err := buildCheck(ctx, rc, cfg, src, repo, rec.Files, coarse)
		if err != nil {
			return Record{}, err
		}
		if i > 0 {
			rec.FineLog = rec.Log
		}
		rec.Builds, rec.Log = &ok, log
		if ok {
			break
		}
		if i+1 < len(modes) {
			rc.Log.Info().Msg("fine-grained mask breaks the target build; retrying with whole function bodies")
		}
	}
	return rec, rc.PutTree("source", repo, cache.SkipVCS)
}

func finish(rc *engine.RunContext, rec Record) error {
	label := fmt.Sprintf("%d regions in %d files masked", len(rec.Regions), len(rec.Files))
	if len(rec.Rejected) > 0 {
		label += fmt.Sprintf(", %d rejected", len(rec.Rejected))
	}
	if rec.Coarse {
		label += " (coarse)"
	}
	if rec.Builds != nil && !*rec.Builds {
		label += "; target build broken"
	}
	rc.SetLabel(label)
	if rec.Actions == nil {
		rec.Actions = []mask.Action{}
	}
	if rec.Files == nil {
		rec.Files = []string{}
	}
	if rec.Regions == nil {
		rec.Regions = []schemas.VerifiedRegion{}
	}
	for name, log := range map[string]string{SideBuildLog: rec.Log, SideFineBuildLog: rec.FineLog} {
		if log == "" {
			continue
		}
		w, err := rc.SideWriter(name)
		if err != nil {
			return err
		}
		io.WriteString(w, log)
		if err := w.Close(); err != nil {
			return err
		}
	}
	return rc.PutJSON("mask.json", rec)
}

// maskFiles rewrites, in repo, every file that has kept regions, keeping
// every line the source platform executed (preserve.go). It returns the
// files changed, the actions, the regions masked and those rejected.
func maskFiles(ctx context.Context, m mask.Masker, soloPass bool, repo string, regions []schemas.VerifiedRegion, coarse bool, ran executedLines) ([]string, []mask.Action, []schemas.VerifiedRegion, []Rejected, error) {
	byFile := map[string][]schemas.VerifiedRegion{}
	for _, r := range regions {
		byFile[r.File] = append(byFile[r.File], r)
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	var (
		changed  []string
		actions  []mask.Action
		masked   []schemas.VerifiedRegion
		rejected []Rejected
	)
	// What the files beside a masked one declared before masking (the
	// files are masked in place, one after another).
	originals := map[string][]byte{}
	for _, f := range files {
		p := filepath.Join(repo, filepath.FromSlash(f))
		content, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		originals[f] = content
		dir, err := filesBeside(repo, f, originals)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		out, acts, kept, rej, err := maskPreserving(ctx, m, f, content, byFile[f], coarse, soloPass, ran[f], dir)
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, nil, nil, ctx.Err()
			}
			// One file the masker cannot handle (edits that overlap, a
			// parse it cannot make) costs that file's regions, never the
			// direction: the other files are still masked.
			why := strings.TrimPrefix(err.Error(), "mask "+f+": ")
			for _, r := range byFile[f] {
				rejected = append(rejected, Rejected{Region: r, Reason: "the masker could not mask this file: " + why})
			}
			continue
		}
		rejected = append(rejected, rej...)
		if len(kept) == 0 {
			continue
		}
		if err := os.WriteFile(p, out, 0o644); err != nil {
			return nil, nil, nil, nil, err
		}
		changed = append(changed, f)
		actions = append(actions, acts...)
		masked = append(masked, kept...)
	}
	return changed, actions, masked, rejected, nil
}

// filesBeside reads the files of f's directory in repo that share f's
// extension (mask.Input.Dir), as they were before this mask step changed
// any: from originals where a file was read before, which it fills.
func filesBeside(repo, f string, originals map[string][]byte) (map[string][]byte, error) {
	dir := path.Dir(f)
	entries, err := os.ReadDir(filepath.Join(repo, filepath.FromSlash(dir)))
	if err != nil {
		return nil, err
	}
	beside := map[string][]byte{}
	for _, e := range entries {
		if !e.Type().IsRegular() || e.Name() == path.Base(f) || path.Ext(e.Name()) != path.Ext(f) {
			continue
		}
		rel := path.Join(dir, e.Name())
		content, ok := originals[rel]
		if !ok {
			if content, err = os.ReadFile(filepath.Join(repo, filepath.FromSlash(rel))); err != nil {
				return nil, err
			}
			originals[rel] = content
		}
		beside[e.Name()] = content
	}
	return beside, nil
}

// buildCheck runs the check command for the target on a copy of repo: a
// fresh materialization of the source with the masked files copied over.
func buildCheck(ctx context.Context, rc *engine.RunContext, cfg Config, src *engine.Artifacts, repo string, masked []string, coarse bool) (bool, string, error) {
	if cfg.Check.Shell != "" || len(cfg.Check.Argv) == 0 {
		return false, "", fmt.Errorf("build check: want an argv, got shell %q with %d words", cfg.Check.Shell, len(cfg.Check.Argv))
	}
	dir := filepath.Join(rc.WorkDir, fmt.Sprintf("check-%v", coarse))
	if err := src.Materialize("source", dir); err != nil {
		return false, "", err
	}
	for _, f := range masked {
		b, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(f)))
		if err != nil {
			return false, "", err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f)), b, 0o644); err != nil {
			return false, "", err
		}
	}
	ex, err := toolenv.Executor(rc.StateDir, cfg.Executor)
	if err != nil {
		return false, "", err
	}
	env, writable, err := toolenv.Env(rc.StateDir, rc.WorkDir, cfg.Language, cfg.Toolchain, cfg.Target)
	if err != nil {
		return false, "", err
	}
	// The check builds offline, as the test runs do, after osbench's own
	// fetch of the complete repository's lock files (the mask touches no
	// lock file): a cache trimmed since the complete runs is filled again.
	if deps.Locks(cfg.Language) {
		lock := filepath.Join(rc.WorkDir, fmt.Sprintf("lock-%v", coarse))
		if err := deps.WriteSkeleton(cfg.Language, dir, lock); err != nil {
			return false, "", fmt.Errorf("build check: lock files: %w", err)
		}
		fetchEx := ex
		if cfg.Executor == executors.WineName {
			// The fetch is the host's go or cargo either way; Wine
			// would only cost a prefix.
			if fetchEx, err = toolenv.Executor(rc.StateDir, executors.LocalName); err != nil {
				return false, "", err
			}
		}
		if _, err := deps.Fetch(ctx, fetchEx, cfg.Language, lock, executors.Cmd{
			Env: env, Timeout: 10 * time.Minute, User: cfg.User, WorkDir: rc.WorkDir, WritableDirs: writable,
		}, io.Discard); err != nil {
			return false, "", fmt.Errorf("build check: %w", err)
		}
	}
	timeout, err := checkTimeout(cfg)
	if err != nil {
		return false, "", err
	}
	env, writable, readOnly, cow := toolenv.Offline(env, writable, cfg.Language)
	readOnly, cow, hidden := toolenv.Hide(env, cfg.Language, dir, readOnly, cow)
	var out bytes.Buffer
	res, err := ex.Run(ctx, executors.Cmd{
		Argv: cfg.Check.Argv, Dir: filepath.Join(dir, filepath.FromSlash(cfg.Check.Dir)), Env: toolenv.Merge(env, cfg.Env), Stdout: &out, Stderr: &out,
		Timeout: timeout, User: cfg.User, WorkDir: rc.WorkDir, WritableDirs: writable, ReadOnlyDirs: readOnly, CopyOnWriteDirs: cow, HiddenPaths: hidden,
	})
	if err != nil {
		return false, "", err
	}
	if res.TimedOut {
		return false, "", errors.New("build check timed out")
	}
	// The scratch directory's name would make the record differ from run
	// to run.
	log := strings.ReplaceAll(out.String(), dir, schemas.WorkToken)
	if len(log) > 4000 {
		log = log[len(log)-4000:]
	}
	return res.ExitCode == 0, log, nil
}

// defaultCheckTimeout bounds a build check whose build has no timeout of
// its own.
const defaultCheckTimeout = 10 * time.Minute

// checkTimeout is the build check's bound: the platform's build timeout
// when the check is its build command (a C library's build takes as long
// in the check as in the runs), else defaultCheckTimeout.
func checkTimeout(cfg Config) (time.Duration, error) {
	if cfg.CheckTimeout == "" {
		return defaultCheckTimeout, nil
	}
	d, err := time.ParseDuration(cfg.CheckTimeout)
	if err != nil {
		return 0, fmt.Errorf("check_timeout: %w", err)
	}
	return d, nil
}
