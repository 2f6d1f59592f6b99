package manifests

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// loadOne loads a manifest that must be valid and declare one repository.
func loadOne(t *testing.T, src string) *Repository {
	t.Helper()
	set, diags := loadSource(t, src)
	for _, d := range diags {
		t.Errorf("unexpected diagnostic: %s", d.Error())
	}
	if len(set.Repositories) != 1 {
		t.Fatalf("got %d repositories, want 1", len(set.Repositories))
	}
	return set.Repositories[0]
}

// withoutPositions drops what depends on where the test file was written, so
// decoded values can be compared with a literal.
func withoutPositions(r *Repository) *Repository {
	c := *r
	c.File, c.DeclRange, c.Ranges = "", hcl.Range{}, nil
	return &c
}

// withEvalDefaults fills what a repository without eval_timeout gets: the
// runs of changed trees use the complete runs' timeout and command.
func withEvalDefaults(r *Repository) {
	for i := range r.Platforms {
		t := &r.Platforms[i].Test
		if t.EvalArgv == nil {
			t.EvalArgv, t.EvalTimeout = t.Argv, t.Timeout
		}
	}
}

func asJSON(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// A minimal two-platform body reused by the cases below.
const twoPlatforms = `
  platform "linux" {
    test {
      command = ["make", "test"]
      parser  = "tap"
    }
  }
  platform "windows" {
    test {
      command = ["make", "test"]
      parser  = "tap"
    }
  }
`

func makeTest() Test {
	return Test{Command: Command{Argv: []string{"make", "test"}}, Parser: "tap"}
}

func TestDecodeRepository(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want *Repository
	}{{
		name: "defaults",
		src: `repository "plain" {
  source {
    path = "/srv/plain"
  }
  migrate = ["linux->windows"]
` + twoPlatforms + `}`,
		want: &Repository{
			Name:      "plain",
			Source:    Source{Path: "/srv/plain"},
			Migrate:   []Direction{{Source: "linux", Target: "windows"}},
			FlakyRuns: 3,
			Split:     1,
			Verifier:  "rules",
			Masker:    "rules",
			Platforms: []*Platform{
				{Name: "linux", Executor: "local", Test: makeTest()},
				{Name: "windows", Executor: "local", Test: makeTest()},
			},
		},
	}, {
		name: "git source and repository-wide values",
		src: `repository "flock" {
  source {
    git    = "https://github.com/gofrs/flock"
    commit = "95A014D"
  }
  language   = "go"
  toolchain  = "go1.25.0"
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 5
  split      = 3
  user       = "root"
  env        = { CGO_ENABLED = "0" }
` + twoPlatforms + `}`,
		want: &Repository{
			Name:      "flock",
			Language:  "go",
			Source:    Source{Git: "https://github.com/gofrs/flock", Commit: "95A014D"},
			Migrate:   []Direction{{Source: "windows", Target: "linux"}, {Source: "linux", Target: "windows"}},
			FlakyRuns: 5,
			Split:     3,
			Verifier:  "rules",
			Masker:    "rules",
			Platforms: []*Platform{
				{Name: "linux", Executor: "local", Toolchain: "go1.25.0", User: "root", Env: map[string]string{"CGO_ENABLED": "0"}, Test: makeTest()},
				{Name: "windows", Executor: "local", Toolchain: "go1.25.0", User: "root", Env: map[string]string{"CGO_ENABLED": "0"}, Test: makeTest()},
			},
		},
	}, {
		name: "platform values override the repository's; env merges key by key",
		src: `repository "override" {
  source {
    path = "/srv/override"
  }
  toolchain = "go1.26.8"
  user      = "root"
  env       = { A = "repo", B = "repo" }
  migrate   = ["linux->windows"]

  platform "windows" {
    executor  = "wine"
    toolchain = "go1.25.5"
    user      = ""
    env       = { B = "windows", C = "windows" }
    test {
      command = ["make", "test"]
      parser  = "tap"
    }
  }
  platform "linux" {
    test {
      command = ["make", "test"]
      parser  = "tap"
    }
  }
}`,
		want: &Repository{
			Name:      "override",
			Source:    Source{Path: "/srv/override"},
			Migrate:   []Direction{{Source: "linux", Target: "windows"}},
			FlakyRuns: 3,
			Split:     1,
			Verifier:  "rules",
			Masker:    "rules",
			Platforms: []*Platform{
				{Name: "linux", Executor: "local", Toolchain: "go1.26.8", User: "root", Env: map[string]string{"A": "repo", "B": "repo"}, Test: makeTest()},
				{Name: "windows", Executor: "wine", Toolchain: "go1.25.5", User: "", Env: map[string]string{"A": "repo", "B": "windows", "C": "windows"}, Test: makeTest()},
			},
		},
	}, {
		name: "locals, functions and env",
		src: `locals {
  major     = "go1.26"
  toolchain = "${local.major}.8"
  flags     = { GOFLAGS = join(" ", ["-mod=mod", "-trimpath"]) }
}

repository "exprs" {
  source {
    path = format("/srv/%s", lower("EXPRS"))
  }
  toolchain = local.toolchain
  env       = merge(local.flags, { HOME = "/home/x" })
  migrate   = [for os in ["linux", "windows"] : "${os}->${os == "linux" ? "windows" : "linux"}"]

  platform "linux" {
    toolchain = env("OSBENCH_TEST_TOOLCHAIN")
    test {
      command = split(" ", "make test")
      parser  = "tap"
    }
  }
  platform "windows" {
    test {
      command = ["make", upper("test")]
      parser  = "tap"
      timeout = "1h30m"
    }
  }
}`,
		want: &Repository{
			Name:      "exprs",
			Source:    Source{Path: "/srv/exprs"},
			Migrate:   []Direction{{Source: "linux", Target: "windows"}, {Source: "windows", Target: "linux"}},
			FlakyRuns: 3,
			Split:     1,
			Verifier:  "rules",
			Masker:    "rules",
			Platforms: []*Platform{
				{Name: "linux", Executor: "local", Toolchain: "go1.25.5",
					Env: map[string]string{"GOFLAGS": "-mod=mod -trimpath", "HOME": "/home/x"}, Test: makeTest()},
				{Name: "windows", Executor: "local", Toolchain: "go1.26.8",
					Env:  map[string]string{"GOFLAGS": "-mod=mod -trimpath", "HOME": "/home/x"},
					Test: Test{Command: Command{Argv: []string{"make", "TEST"}}, Parser: "tap", Timeout: 90 * time.Minute}},
			},
		},
	}, {
		name: "build, shells, dirs, regex parser and coverage",
		src: `repository "scripts" {
  source {
    path = "/srv/scripts"
  }
  migrate = ["windows->linux"]

  platform "linux" {
    build {
      command = ["make", "-j2"]
      dir     = "./src//lib/"
    }
    test {
      command = "./run-tests.sh | tee log"
      shell   = "bash"
      dir     = "."
      parser  = "regex"
      regex {
        pattern  = "^(?P<status>ok|not ok) (?P<id>.+)$"
        statuses = { ok = "pass", "not ok" = "fail" }
      }
    }
    coverage {
      format = "lcov"
      path   = "out\\lcov.info"
    }
  }
  platform "windows" {
    test {
      command = "run-tests.cmd"
      shell   = "cmd"
      dir     = "tests\\win"
      parser  = "tap"
    }
  }
}`,
		want: &Repository{
			Name:      "scripts",
			Source:    Source{Path: "/srv/scripts"},
			Migrate:   []Direction{{Source: "windows", Target: "linux"}},
			FlakyRuns: 3,
			Split:     1,
			Verifier:  "rules",
			Masker:    "rules",
			Platforms: []*Platform{{
				Name:     "linux",
				Executor: "local",
				Build:    &Command{Argv: []string{"make", "-j2"}, Dir: "src/lib"},
				Test: Test{
					Command: Command{Argv: []string{"./run-tests.sh | tee log"}, Shell: "bash"},
					Parser:  "regex",
					Regex: &RegexParser{
						Pattern:  "^(?P<status>ok|not ok) (?P<id>.+)$",
						Statuses: map[string]string{"ok": "pass", "not ok": "fail"},
					},
				},
				Coverage: &Coverage{Format: "lcov", Path: "out/lcov.info"},
			}, {
				Name:     "windows",
				Executor: "local",
				Test:     Test{Command: Command{Argv: []string{"run-tests.cmd"}, Shell: "cmd", Dir: "tests/win"}, Parser: "tap"},
			}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := withoutPositions(loadOne(t, tt.src))
			withEvalDefaults(tt.want)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decoded:\n%s\nwant:\n%s", asJSON(got), asJSON(tt.want))
			}
		})
	}
}

// A relative source path is resolved against the manifest's directory, not
// the working directory; an absolute one is kept.
func TestSourcePathIsRelativeToManifest(t *testing.T) {
	dir := writeFiles(t, map[string]string{"m.hcl": `repository "rel" {
  source {
    path = "../repos/rel"
  }
  migrate = ["linux->windows"]
` + twoPlatforms + `}`})
	set, diags := Load([]string{filepath.Join(dir, "m.hcl")}, testOptions())
	if diags.HasErrors() || len(set.Repositories) != 1 {
		t.Fatalf("load failed: %v", diags)
	}
	want := filepath.Join(filepath.Dir(dir), "repos", "rel")
	if got := set.Repositories[0].Source.Path; got != want {
		t.Errorf("Source.Path = %q, want %q", got, want)
	}
}

// A directory stands for its *.hcl files in name order, not recursively;
// repositories come back sorted by name, and duplicates across files point
// at the second and name the first.
func TestLoadDirectory(t *testing.T) {
	repo := func(name string) string {
		return `repository "` + name + `" {
  source {
    path = "/srv/x"
  }
  migrate = ["linux->windows"]
` + twoPlatforms + "}\n"
	}
	dir := writeFiles(t, map[string]string{
		"b.hcl":      repo("zeta") + repo("alpha"),
		"a.hcl":      repo("mid"),
		"c.hcl":      repo("alpha"),
		"notes.txt":  "not a manifest",
		"skip.hcl.o": "neither",
	})
	sub := filepath.Join(dir, "nested")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "d.hcl"), []byte(repo("nested")), 0o644); err != nil {
		t.Fatal(err)
	}

	set, diags := Load([]string{dir}, testOptions())
	var names []string
	for _, r := range set.Repositories {
		names = append(names, r.Name)
	}
	if got, want := strings.Join(names, " "), "alpha mid zeta"; got != want {
		t.Errorf("repositories = %q, want %q", got, want)
	}
	if alpha := set.Repositories[0]; alpha.File != filepath.Join(dir, "b.hcl") {
		t.Errorf("alpha comes from %s, want the first declaration in b.hcl", alpha.File)
	}
	if len(set.Sources) != 3 {
		t.Errorf("Sources has %d files, want the 3 manifests", len(set.Sources))
	}
	if len(diags) != 1 {
		t.Fatalf("got %d diagnostics, want the one duplicate: %v", len(diags), diags)
	}
	d := diags[0]
	if d.Subject.Filename != filepath.Join(dir, "c.hcl") || !strings.Contains(d.Detail, filepath.Join(dir, "b.hcl")+":") {
		t.Errorf("duplicate should point at c.hcl and name b.hcl: %s", d.Error())
	}
}

func TestLoadMissingPaths(t *testing.T) {
	empty := t.TempDir()
	set, diags := Load([]string{filepath.Join(empty, "absent.hcl"), empty}, testOptions())
	if set == nil || len(set.Repositories) != 0 {
		t.Fatalf("want an empty set, got %+v", set)
	}
	if len(diags) != 2 || diags[0].Severity != hcl.DiagError || diags[1].Severity != hcl.DiagWarning {
		t.Fatalf("want an error for the absent file and a warning for the empty directory, got %v", diags)
	}
}

// With nil Known funcs every plugin name is accepted; the lists only feed
// suggestions.
func TestNilKnownAcceptsEveryName(t *testing.T) {
	dir := writeFiles(t, map[string]string{"m.hcl": `repository "anything" {
  source {
    path = "/srv/x"
  }
  migrate = ["linux->windows"]
  platform "linux" {
    executor = "my-executor"
    test {
      command = ["t"]
      parser  = "my-parser"
    }
    coverage {
      format = "my-format"
      path   = "c.out"
    }
  }
  platform "windows" {
    test {
      command = ["t"]
      parser  = "other"
    }
  }
}`})
	set, diags := Load([]string{filepath.Join(dir, "m.hcl")}, LoadOptions{})
	if diags.HasErrors() || len(set.Repositories) != 1 {
		t.Fatalf("want it accepted, got %v", diags)
	}
}

// Only repositories without errors are returned, so a caller may still build
// the good ones; the broken ones are all in the diagnostics.
func TestBrokenRepositoriesAreLeftOut(t *testing.T) {
	set, diags := loadSource(t, `repository "good" {
  source {
    path = "/srv/good"
  }
  migrate = ["linux->windows"]
`+twoPlatforms+`}

repository "bad" {
  source {
    path = "/srv/bad"
  }
  migrate = ["linux->windows"]
  platform "linux" {
    test {
      command = ["make"]
      parser  = "tap"
      timeout = "soon"
    }
  }
  platform "windows" {
    test {
      command = ["make"]
      parser  = "tap"
    }
  }
}`)
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, `"soon"`) {
		t.Errorf("want one timeout error, got %v", diags)
	}
	if len(set.Repositories) != 1 || set.Repositories[0].Name != "good" {
		t.Errorf("want only the good repository, got %d", len(set.Repositories))
	}
}
