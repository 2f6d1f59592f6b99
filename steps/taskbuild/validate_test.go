package taskbuild

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/label"
	"github.com/osbench/osbench/plugins/taskpkg"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/maskrepo"
)

func run(statuses map[string]schemas.Status) schemas.TestResults {
	tr := schemas.TestResults{}
	for id, s := range statuses {
		tr.Tests = append(tr.Tests, schemas.TestResult{ID: id, Status: s})
	}
	return tr
}

// TestValidate walks each rejection rule, and accepts a candidate whose gold
// patch gives back the complete repository.
func TestValidate(t *testing.T) {
	work := t.TempDir()
	original, masked := filepath.Join(work, "orig"), filepath.Join(work, "masked")
	os.MkdirAll(original, 0o755)
	os.MkdirAll(masked, 0o755)
	os.WriteFile(filepath.Join(original, "a.go"), []byte("package a\n\nfunc Sep() string { return `\\` }\n"), 0o644)
	os.WriteFile(filepath.Join(masked, "a.go"), []byte("package a\n\nfunc Sep() string { return \"\" }\n"), 0o644)
	gold, err := taskpkg.GoldPatch(masked, original)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(work, "other")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "a.go"), []byte("package a\n\nfunc Sep() string { return \"/\" }\n"), 0o644)
	wrong, err := taskpkg.GoldPatch(masked, other)
	if err != nil {
		t.Fatal(err)
	}
	builds, broken := true, false
	region := schemas.VerifiedRegion{Region: schemas.Region{File: "a.go", Start: 3, End: 3}}
	good := Outcome{
		Labels: label.Labels{FailToPass: []string{"m/TestSep"}, PassOnSource: []string{"m/TestSep"}},
		Mask:   maskrepo.Record{Builds: &builds, Regions: []schemas.VerifiedRegion{region}},
	}
	passing := run(map[string]schemas.Status{"m/TestSep": schemas.StatusPass})
	for name, tc := range map[string]struct {
		out            func(Outcome) Outcome
		target, source schemas.TestResults
		gold           string
		want           string
	}{
		"accepted":     {func(o Outcome) Outcome { return o }, passing, passing, gold, ""},
		"mask breaks":  {func(o Outcome) Outcome { o.Mask.Builds = &broken; return o }, passing, passing, gold, "does not build for the target, even"},
		"build-failed": {func(o Outcome) Outcome { return o }, run(map[string]schemas.Status{"m/TestSep": schemas.StatusBuildFailed}), passing, gold, "build-failed tests"},
		"no regions":   {func(o Outcome) Outcome { o.Mask.Regions = nil; return o }, passing, passing, gold, "no platform-specific region"},
		"every region left unmasked": {func(o Outcome) Outcome {
			o.Mask.Regions = nil
			o.Mask.Retry = &schemas.MaskRetry{First: schemas.MaskedRun{Class: schemas.MaskCrash}, Remasked: true}
			o.Mask.Rejected = []schemas.MaskRejected{{
				Region: schemas.VerifiedRegion{Region: schemas.Region{File: "basepath.go", Start: 69, End: 72}},
				Reason: "its placeholder would change line 78, which the source platform executed"}}
			return o
		}, passing, passing, gold, "no verified region could be masked (1 left unmasked by the whole-function-body mask tried after the first mask's target run crashed): basepath.go:69-72 its placeholder would change line 78"},
		"empty f2p": {func(o Outcome) Outcome { o.Labels.FailToPass = nil; return o }, passing, passing, gold, "FAIL_TO_PASS is empty: masking broke no target test"},
		"only doctests broke": {func(o Outcome) Outcome {
			o.Labels.FailToPass, o.Labels.RewritableFailToPass = nil, []string{"doctest/src/lib.rs - sep"}
			return o
		}, passing, passing, gold, "defined where a patch can rewrite them (1, e.g. doctest/src/lib.rs - sep"},
		"empty p2s":      {func(o Outcome) Outcome { o.Labels.PassOnSource = nil; return o }, passing, passing, gold, "PASS_ON_SOURCE is empty"},
		"source changed": {func(o Outcome) Outcome { return o }, passing, run(map[string]schemas.Status{"m/TestSep": schemas.StatusFail}), gold, "masking changed the source platform"},
		"mask crashes": {func(o Outcome) Outcome {
			o.MaskedRun = schemas.MaskedRun{Class: schemas.MaskCrash, FailToPassByStatus: map[schemas.Status]int{schemas.StatusMissing: 1}, Crashed: []string{"m/TestSep (missing)"}}
			o.Mask.Retry = &maskrepo.Retry{First: schemas.MaskedRun{Class: schemas.MaskHang}, Remasked: true}
			return o
		}, passing, passing, gold, "the masked target run crashes even with whole function bodies masked (the first mask hung): 0 of 1 FAIL_TO_PASS tests failed by assertion, e.g. m/TestSep (missing)"},
		"mask hangs": {func(o Outcome) Outcome { o.MaskedRun = schemas.MaskedRun{Class: schemas.MaskHang}; return o }, passing, passing, gold, "the masked target run hangs with the first mask"},
		"gold empty": {func(o Outcome) Outcome { return o }, passing, passing, "", "does not apply"},
		"gold wrong": {func(o Outcome) Outcome { return o }, passing, passing, wrong, "does not give back the complete repository"},
	} {
		fresh := func(dir string) error {
			os.MkdirAll(dir, 0o755)
			b, err := os.ReadFile(filepath.Join(masked, "a.go"))
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "a.go"), b, 0o644)
		}
		got := validate(tc.out(good), tc.target, tc.source, tc.gold, original, fresh, filepath.Join(work, name))
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: validate = %q, want %q", name, got, tc.want)
		}
	}
}

// TestSelfLocked: a crate whose lock takes the crate itself from the
// registry (a dev-dependency that depends on it) is no task, with the copy
// named; the same crate without that entry is not refused.
func TestSelfLocked(t *testing.T) {
	lock := "version = 3\n\n[[package]]\nname = \"same-file\"\nversion = \"1.0.6\"\n"
	registryCopy := "\n[[package]]\nname = \"same-file\"\nversion = \"1.0.5\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
	for _, tc := range []struct {
		name, lock, want string
	}{
		{"own package only as the tree", lock, ""},
		{"own package also from the registry", lock + registryCopy, "crate same-file@1.0.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := t.TempDir()
			for name, body := range map[string]string{"Cargo.toml": "[package]\nname = \"same-file\"\nversion = \"1.0.6\"\n", "Cargo.lock": tc.lock} {
				if err := os.WriteFile(filepath.Join(repo, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got := selfLocked("rust", repo)
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("selfLocked = %q, want it to name %q", got, tc.want)
			}
		})
	}
}

// TestRewritableTests: the target's runner, found by the language and the
// target environment's parser, says which tests are rewritable (libtest's
// doctests); a target without an environment is an error, never "none".
func TestRewritableTests(t *testing.T) {
	cfg := func(language, parser string) Config {
		return Config{Language: language, Source: "linux", Target: "windows", Environment: map[string]schemas.TestEnvironment{"windows": {Parser: parser}}}
	}
	for _, tc := range []struct {
		cfg  Config
		id   string
		want bool
	}{
		{cfg("rust", "libtest"), "doctest/src/lib.rs - join", true},
		{cfg("rust", "libtest"), "src/lib.rs/tests::join", false},
		{cfg("go", "go-test-json"), "doctest/x", false},
		{cfg("c", "ctest"), "doctest/x", false},
	} {
		rewritable, err := rewritableTests(tc.cfg)
		if err != nil {
			t.Fatalf("%s/%s: %v", tc.cfg.Language, tc.cfg.Environment["windows"].Parser, err)
		}
		if got := rewritable(tc.id); got != tc.want {
			t.Errorf("%s: rewritable(%q) = %v, want %v", tc.cfg.Language, tc.id, got, tc.want)
		}
	}
	if _, err := rewritableTests(Config{Language: "rust", Target: "windows"}); err == nil {
		t.Error("no environment for the target: no error")
	}
}
