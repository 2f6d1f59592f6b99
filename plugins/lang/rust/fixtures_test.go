package rust_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang/masktest"
	"github.com/osbench/osbench/plugins/mask"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// rustFixtureMasks mask rsplat both ways: its Windows lines (a
// linux→windows task, where Windows is the target) and its Unix lines
// (windows→linux). The regions are those a verifier passes: the content
// lines of each cfg block, function and constant. Every file of rsplat is
// compiled on both platforms (its platform code is under cfg).
var rustFixtureMasks = map[string]masktest.Fixture{
	"rsplat-windows-paths": {Repo: "rsplat", File: "src/paths.rs", SourceCompiled: true,
		Regions: [][2]int{{5, 5}, {12, 12}, {22, 22}, {35, 41}, {75, 75}, {95, 112}}},
	"rsplat-windows-attrs": {Repo: "rsplat", File: "src/attrs.rs", SourceCompiled: true, Regions: [][2]int{{7, 7}, {9, 9}, {17, 19}, {35, 37}}},
	"rsplat-windows-units": {Repo: "rsplat", File: "src/units.rs", SourceCompiled: true, Regions: [][2]int{{18, 19}, {32, 33}}},
	"rsplat-unix-paths": {Repo: "rsplat", File: "src/paths.rs", SourceCompiled: true,
		Regions: [][2]int{{8, 8}, {15, 15}, {26, 26}, {45, 46}, {79, 82}}},
	"rsplat-unix-attrs": {Repo: "rsplat", File: "src/attrs.rs", SourceCompiled: true, Regions: [][2]int{{23, 26}, {41, 43}}},
	"rsplat-unix-units": {Repo: "rsplat", File: "src/units.rs", SourceCompiled: true, Regions: [][2]int{{23, 24}, {37, 38}}},
	// Coarse: is_hidden is compiled on both platforms, so its body is
	// guarded; split_quoted is Windows-only and becomes a placeholder.
	"rsplat-coarse-attrs": {Repo: "rsplat", File: "src/attrs.rs", SourceCompiled: true, Coarse: true, Regions: [][2]int{{18, 18}}},
	"rsplat-coarse-paths": {Repo: "rsplat", File: "src/paths.rs", SourceCompiled: true, Coarse: true, Regions: [][2]int{{22, 22}, {100, 104}}},
}

func TestRustFixtureGolden(t *testing.T) {
	for name, fm := range rustFixtureMasks {
		t.Run(name, func(t *testing.T) {
			out := masktest.Mask(t, fm)
			masktest.CheckGolden(t, name, masktest.Render(out), *update)
			for _, a := range out.Actions {
				if a.Kind == mask.KindUnmasked {
					t.Errorf("region %d-%d left unmasked: %s", a.Region.Start, a.Region.End, a.Detail)
				}
			}
			if !fm.Coarse {
				src, err := os.ReadFile(filepath.Join(masktest.Dir(fm.Repo), fm.File))
				if err != nil {
					t.Fatal(err)
				}
				checkChangedLines(t, src, out.Source, fm.Regions)
			}
		})
	}
}

// rustMaskedCopy copies rsplat and masks the files of one direction (the
// masks whose names start with prefix).
func rustMaskedCopy(t *testing.T, prefix string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "rsplat")
	if err := os.CopyFS(dir, os.DirFS(masktest.Dir("rsplat"))); err != nil {
		t.Fatal(err)
	}
	for name, fm := range rustFixtureMasks {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, fm.File), masktest.Mask(t, fm).Source, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The Windows standard library and linker wrapper the cargo preset uses
// (manifests/presets/cargo.hcl, built by scripts/rust-profiler.sh).
const windowsRust = "/usr/local/lib/osbench/rust-windows-gnu"

// cargoEnv keeps cargo's state in the scratch copy and uses Debian's
// rustc, as osbench's commands do.
func cargoEnv(dir string) []string {
	return []string{"CARGO_HOME=" + filepath.Join(dir, "_cargo_home"), "CARGO_TARGET_DIR=" + filepath.Join(dir, "_target"),
		"CARGO_INCREMENTAL=0", "RUSTC=/usr/bin/rustc", "RUSTDOC=/usr/bin/rustdoc", "PATH=/usr/bin:" + os.Getenv("PATH")}
}

// windowsEnv builds for x86_64-pc-windows-gnu with the preset's sysroot.
func windowsEnv(dir string) []string {
	return append(cargoEnv(dir),
		"CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc",
		"RUSTFLAGS=--sysroot="+windowsRust+"/sysroot")
}

// TestMaskedRustFixtureBuilds proves the Rust masks quiet with the real
// toolchain. linux→windows: the masked crate and its tests build for
// Windows, and the Linux tests, whose code masking never touches, pass.
// windows→linux: the masked crate and its tests build for Linux, and the
// Windows tests still build (Wine is not asked to run them).
func TestMaskedRustFixtureBuilds(t *testing.T) {
	masktest.NeedTool(t, "/usr/bin/cargo")
	windows := true
	if _, err := os.Stat(filepath.Join(windowsRust, "sysroot")); err != nil {
		windows = false
	}
	if _, err := os.Stat("/usr/bin/x86_64-w64-mingw32-gcc"); err != nil {
		windows = false
	}
	t.Run("linux-to-windows", func(t *testing.T) {
		dir := rustMaskedCopy(t, "rsplat-windows-")
		out := masktest.Run(t, dir, cargoEnv(dir), "/usr/bin/cargo", "test", "--offline", "--quiet")
		if !strings.Contains(out, "test result: ok") {
			t.Errorf("cargo test printed no passing result:\n%s", out)
		}
		if !windows {
			t.Skip("no Windows standard library at " + windowsRust + " (scripts/rust-profiler.sh) or no mingw-w64")
		}
		masktest.Run(t, dir, windowsEnv(dir), "/usr/bin/cargo", "build", "--offline", "--tests", "--target", "x86_64-pc-windows-gnu")
	})
	t.Run("windows-to-linux", func(t *testing.T) {
		dir := rustMaskedCopy(t, "rsplat-unix-")
		masktest.Run(t, dir, cargoEnv(dir), "/usr/bin/cargo", "build", "--offline", "--tests")
		if !windows {
			t.Skip("no Windows standard library at " + windowsRust + " (scripts/rust-profiler.sh) or no mingw-w64")
		}
		masktest.Run(t, dir, windowsEnv(dir), "/usr/bin/cargo", "build", "--offline", "--tests", "--target", "x86_64-pc-windows-gnu")
	})
	t.Run("coarse", func(t *testing.T) {
		dir := rustMaskedCopy(t, "rsplat-coarse-")
		out := masktest.Run(t, dir, cargoEnv(dir), "/usr/bin/cargo", "test", "--offline", "--quiet")
		if !strings.Contains(out, "test result: ok") {
			t.Errorf("cargo test printed no passing result:\n%s", out)
		}
		if windows {
			masktest.Run(t, dir, windowsEnv(dir), "/usr/bin/cargo", "build", "--offline", "--tests", "--target", "x86_64-pc-windows-gnu")
		}
	})
}
