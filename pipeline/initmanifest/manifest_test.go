package initmanifest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/manifests"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestManifestText checks the written layout against goldens, and that what
// is written loads (no plugin names checked here: the bundled presets').
func TestManifestText(t *testing.T) {
	tests := []struct {
		golden string
		m      Manifest
	}{{
		golden: "common.hcl",
		m: Manifest{
			Comment: []string{"Written by osbench init after one run per platform; review before use."},
			Name:    "gofrs-flock", Preset: "go", Toolchain: "go1.26.8",
			Source:  Source{Kind: KindGoModule, Value: "github.com/gofrs/flock@v0.12.1", Sum: "h1:MTLVXXHf8ekldpJk3AKicLij9MdwOWkZ+a/jHHZby9M="},
			Migrate: []string{"windows->linux", "linux->windows"},
		},
	}, {
		golden: "skips.hcl",
		m: Manifest{
			Name: "pathsep", Preset: "go", Toolchain: "go1.26.8",
			Source:  Source{Kind: KindPath, Value: "../repos/pathsep"},
			Migrate: []string{"linux->windows"},
			Skips: map[string][]Skip{
				"windows": {{Test: "TestPanics", Reason: "panicked: boom"}, {Test: "TestSep", Reason: "sep_test.go:3: got \"a\\b\"\n# not a second comment"}},
				"linux":   {{Test: "TestLock", Reason: "timed out on linux"}},
			},
			EvalTimeouts: map[string]EvalTimeout{"windows": {Value: "7m", Reason: "eval_timeout: 3× the first run in whole minutes, at least 5m"}},
		},
	}, {
		golden: "eval_timeout.hcl",
		m: Manifest{
			Name: "quick", Preset: "go",
			Source:       Source{Kind: KindPath, Value: "../repos/pathsep"},
			Migrate:      []string{"linux->windows"},
			EvalTimeouts: map[string]EvalTimeout{"linux": {Value: "3m", Reason: "a shorter one, written by hand"}},
		},
	}, {
		golden: "raised_timeout.hcl",
		m: Manifest{
			Name: "slow", Preset: "go",
			Source:  Source{Kind: KindPath, Value: "../repos/pathsep"},
			Migrate: []string{"linux->windows"},
			EvalTimeouts: map[string]EvalTimeout{"windows": {Value: "30m", Timeout: "30m",
				Reason: "timeout raised from 20m to 30m with eval_timeout, which cannot exceed it (eval_timeout: the first rung of 5m/10m/20m/30m/1h/2h at or above 3× the first run)"}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			got := tt.m.Text()
			path := filepath.Join("testdata", tt.golden)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Text():\n%s\nwant (%s):\n%s", got, path, want)
			}
			if !bytes.Equal(manifests.Format(got), got) {
				t.Errorf("Text() is not in osbench fmt's layout")
			}
			if tt.m.Source.Kind == KindPath {
				set, diags := manifests.LoadSource(filepath.Join(t.TempDir(), "x", tt.golden), got, manifests.LoadOptions{})
				if diags.HasErrors() {
					t.Fatalf("does not load: %v", diags)
				}
				p := set.Repositories[0].Platforms
				if len(p) != 2 || len(p[1].Test.Skip) != len(tt.m.Skips["windows"]) {
					t.Errorf("platforms %+v: want windows with %d skips", p, len(tt.m.Skips["windows"]))
				}
				for _, platform := range p {
					if et, ok := tt.m.EvalTimeouts[platform.Name]; ok && formatMinutes(platform.Test.EvalTimeout) != et.Value {
						t.Errorf("%s: eval timeout %v, want %s", platform.Name, platform.Test.EvalTimeout, et.Value)
					}
				}
			}
		})
	}
}

func TestDetectPreset(t *testing.T) {
	tests := []struct {
		files []string
		want  string
	}{
		{[]string{"README.md", "go.mod", "x.go"}, "go"},
		{[]string{"Cargo.toml", "src/lib.rs", "tools/go.mod"}, "cargo"},
		{[]string{"CMakeLists.txt", "src/a.c"}, "c-cmake"},
		{[]string{"Lib.sln", "src/Lib/Lib.csproj"}, "dotnet"},
		{[]string{"configure.ac", "Makefile.am", "src/a.c"}, "c-autotools"},
		{[]string{"configure", "builds/msvc/vs2019/libsodium.sln", "libsodium.sln"}, "c-autotools"},
		{[]string{"src/Lib.csproj"}, "dotnet"},
		{[]string{"Makefile", "sub/go.mod"}, ""},
	}
	for _, tt := range tests {
		tree := &cache.Tree{}
		for _, f := range tt.files {
			tree.Entries = append(tree.Entries, cache.TreeEntry{Path: f})
		}
		got, err := DetectPreset(tree)
		if got != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("DetectPreset(%v) = %q, %v; want %q", tt.files, got, err, tt.want)
		}
	}
}
