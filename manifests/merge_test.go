package manifests

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"
)

// basePreset is a curator's preset; the line numbers matter to the tests.
const basePreset = `preset "base" {
  language  = "c"
  toolchain = "gcc-12"
  env       = { CC = "gcc" }

  platform "linux" {
    executor = "local"
    build {
      command = ["make"]
    }
    test {
      command    = concat(["make", "check", "TIMEOUT=${timeout}", "COVER=${coverage_file}"], skip_args)
      parser     = "tap"
      timeout    = "10m"
      skip_style = "ctest"
    }
    coverage {
      format = "lcov"
      path   = "lcov.info"
    }
  }
}
`

// manifestHead is the first 6 lines of every manifest below, so the lines
// they add start at 7.
const manifestHead = `repository "merged" {
  preset = "base"
  source {
    path = "/srv/merged"
  }
  migrate = ["linux->windows"]
`

// windowsPlatform is a platform the preset lacks.
const windowsPlatform = `
  platform "windows" {
    executor = "wine"
    test {
      command = ["make.exe", "check"]
      parser  = "tap"
    }
  }
`

func TestPresetMerge(t *testing.T) {
	tests := []struct {
		name     string
		manifest string // after manifestHead
		check    func(t *testing.T, r *Repository)
		// ranges maps a field path to "file:line" of the attribute that
		// supplied its final value.
		ranges map[string]string
	}{{
		name:     "one test field overridden, the rest from the preset",
		manifest: `  platform "linux" {` + "\n" + `    test { timeout = "20m" }` + "\n  }\n" + windowsPlatform + "}\n",
		check: func(t *testing.T, r *Repository) {
			linux := r.Platforms[0]
			if linux.Test.Timeout != 20*time.Minute || linux.Test.Parser != "tap" || linux.Executor != "local" {
				t.Errorf("linux test = %+v", linux.Test)
			}
			want := []string{"make", "check", "TIMEOUT=20m", "COVER=lcov.info"}
			if !reflect.DeepEqual(linux.Test.Argv, want) {
				t.Errorf("late command = %q, want %q", linux.Test.Argv, want)
			}
			if linux.Build == nil || !reflect.DeepEqual(linux.Build.Argv, []string{"make"}) {
				t.Errorf("build = %+v, want the preset's", linux.Build)
			}
		},
		ranges: map[string]string{
			"preset":                         "manifest.hcl:2",
			"source.path":                    "manifest.hcl:4",
			"migrate":                        "manifest.hcl:6",
			"language":                       "presets.hcl:2",
			"toolchain":                      "presets.hcl:3",
			"platform.linux":                 "manifest.hcl:7",
			"platform.linux.executor":        "presets.hcl:7",
			"platform.linux.toolchain":       "presets.hcl:3",
			"platform.linux.env":             "presets.hcl:4",
			"platform.linux.build.command":   "presets.hcl:9",
			"platform.linux.test.command":    "presets.hcl:12",
			"platform.linux.test.parser":     "presets.hcl:13",
			"platform.linux.test.timeout":    "manifest.hcl:8",
			"platform.linux.test.skip_style": "presets.hcl:15",
			"platform.linux.coverage.format": "presets.hcl:18",
			"platform.linux.coverage.path":   "presets.hcl:19",
			"platform.windows.executor":      "manifest.hcl:12",
			"platform.windows.toolchain":     "presets.hcl:3",
			"platform.windows.test.command":  "manifest.hcl:14",
		},
	}, {
		name: "a platform the preset lacks is added whole and inherits repository values",
		manifest: windowsPlatform + `}
`,
		check: func(t *testing.T, r *Repository) {
			if len(r.Platforms) != 2 || r.Platforms[1].Name != "windows" {
				t.Fatalf("platforms = %d, want linux and windows", len(r.Platforms))
			}
			windows := r.Platforms[1]
			if windows.Toolchain != "gcc-12" || windows.Env["CC"] != "gcc" || windows.Coverage != nil || windows.Build != nil {
				t.Errorf("windows = %+v", windows)
			}
		},
		ranges: map[string]string{
			"platform.linux":             "presets.hcl:6",
			"platform.windows":           "manifest.hcl:8",
			"platform.windows.env":       "presets.hcl:4",
			"platform.windows.toolchain": "presets.hcl:3",
		},
	}, {
		name: "repository values override the preset's and an attribute is replaced whole",
		manifest: `  toolchain = "gcc-13"
  env       = { CFLAGS = "-O0" }
` + windowsPlatform + "}\n",
		check: func(t *testing.T, r *Repository) {
			for _, p := range r.Platforms {
				if p.Toolchain != "gcc-13" || !reflect.DeepEqual(p.Env, map[string]string{"CFLAGS": "-O0"}) {
					t.Errorf("%s: toolchain %q env %v", p.Name, p.Toolchain, p.Env)
				}
			}
		},
		ranges: map[string]string{
			"toolchain":                "manifest.hcl:7",
			"env":                      "manifest.hcl:8",
			"platform.linux.toolchain": "manifest.hcl:7",
			"platform.linux.env":       "manifest.hcl:8",
		},
	}, {
		name: "nested blocks merge attribute by attribute; the skip list reaches the command",
		manifest: `  platform "linux" {
    test {
      skip = ["a.b", "c"]
    }
    coverage {
      path = "out/lcov.info"
    }
  }
` + windowsPlatform + "}\n",
		check: func(t *testing.T, r *Repository) {
			linux := r.Platforms[0]
			if *linux.Coverage != (Coverage{Format: "lcov", Path: "out/lcov.info"}) {
				t.Errorf("coverage = %+v", linux.Coverage)
			}
			want := []string{"make", "check", "TIMEOUT=10m", "COVER=out/lcov.info", "-E", `^(a\.b|c)$`}
			if !reflect.DeepEqual(linux.Test.Argv, want) {
				t.Errorf("late command = %q, want %q", linux.Test.Argv, want)
			}
		},
		ranges: map[string]string{
			"platform.linux.test.skip":       "manifest.hcl:9",
			"platform.linux.test.timeout":    "presets.hcl:14",
			"platform.linux.coverage.format": "presets.hcl:18",
			"platform.linux.coverage.path":   "manifest.hcl:12",
		},
	}, {
		name: "a manifest can replace the preset's command",
		manifest: `  platform "linux" {
    test {
      command = ["ctest", "-j2", "--timeout", timeout]
    }
  }
` + windowsPlatform + "}\n",
		check: func(t *testing.T, r *Repository) {
			if want := []string{"ctest", "-j2", "--timeout", "10m"}; !reflect.DeepEqual(r.Platforms[0].Test.Argv, want) {
				t.Errorf("command = %q, want %q", r.Platforms[0].Test.Argv, want)
			}
		},
		ranges: map[string]string{"platform.linux.test.command": "manifest.hcl:9"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{
				"presets.hcl":  basePreset,
				"manifest.hcl": manifestHead + tt.manifest,
			})
			set, diags := Load([]string{dir}, testOptions())
			for _, d := range diags {
				t.Errorf("unexpected diagnostic: %s", d.Error())
			}
			if len(set.Repositories) != 1 {
				t.Fatalf("got %d repositories", len(set.Repositories))
			}
			r := set.Repositories[0]
			if r.Preset != "base" {
				t.Errorf("Preset = %q", r.Preset)
			}
			tt.check(t, r)
			for key, want := range tt.ranges {
				rng, ok := r.Ranges[key]
				if !ok {
					t.Errorf("Ranges[%q] missing", key)
					continue
				}
				if got := fmt.Sprintf("%s:%d", filepath.Base(rng.Filename), rng.Start.Line); got != want {
					t.Errorf("Ranges[%q] = %s, want %s", key, got, want)
				}
			}
		})
	}
}

// The bundled go preset, overridden in one field, gives the documented go
// test command; ranges and Sources point into presets/go.hcl.
func TestGoPreset(t *testing.T) {
	r := loadOne(t, `repository "pathsep" {
  preset = "go"
  source {
    path = "/srv/pathsep"
  }
  migrate = ["linux->windows"]
  platform "linux" {
    test {
      timeout = "20m"
      skip    = ["TestSymlink", "TestA.B"]
    }
  }
  platform "windows" {
    executor = "wine"
    test {
      command = ["go", "test", "./..."]
      parser  = "go-test-json"
    }
  }
}`)
	linux := r.Platforms[0]
	want := []string{
		"go", "test", "-count=1", "-json", "-vet=off", "-timeout=20m",
		"-covermode=set", "-coverpkg=./...", "-coverprofile=coverage.out",
		"-skip", `^TestSymlink$|^TestA\.B$`, "./...",
	}
	if !reflect.DeepEqual(linux.Test.Argv, want) {
		t.Errorf("go preset command = %q\nwant %q", linux.Test.Argv, want)
	}
	if r.Language != "go" || linux.Test.Parser != "go-test-json" || linux.Test.SkipStyle != "go" ||
		linux.Executor != "local" || *linux.Coverage != (Coverage{Format: "go-coverprofile", Path: "coverage.out"}) {
		t.Errorf("go preset values: %+v", linux)
	}
	if got := r.Ranges["platform.linux.test.command"].Filename; got != "presets/go.hcl" {
		t.Errorf("command range in %q, want presets/go.hcl", got)
	}
}

func TestPresets(t *testing.T) {
	names := Presets()
	if !slices.Contains(names, "go") || !slices.IsSorted(names) {
		t.Fatalf("Presets() = %q, want a sorted list with go", names)
	}
	for _, name := range names {
		src, ok := PresetSource(name)
		if !ok || len(src) == 0 {
			t.Errorf("PresetSource(%q) is empty", name)
		}
		if formatted := Format(src); string(formatted) != string(src) {
			t.Errorf("bundled preset %s is not canonically formatted", name)
		}
		// Every bundled preset must load cleanly for a repository using it.
		set, diags := loadSource(t, `repository "uses-`+name+`" {
  preset = "`+name+`"
  source {
    path = "/srv/x"
  }
  migrate = ["linux->windows"]
  platform "windows" {
    test {
      command = ["t"]
      parser  = "tap"
    }
  }
}`)
		for _, d := range diags {
			t.Errorf("preset %s: %s", name, d.Error())
		}
		if _, ok := set.Sources[presetFileName(name)]; !ok {
			t.Errorf("Sources lacks %s", presetFileName(name))
		}
	}
	for _, bad := range []string{"", "nope", "../go", "presets/go", "go.hcl"} {
		if _, ok := PresetSource(bad); ok {
			t.Errorf("PresetSource(%q) found something", bad)
		}
	}
}
