package initmanifest

import (
	"context"
	"fmt"
	"github.com/osbench/osbench/plugins/toolenv"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/osbench/osbench/engine/cache"
)

// DetectPreset names the bundled preset for a source tree from the files
// at its top: go.mod → go, Cargo.toml → cargo, CMakeLists.txt → c-cmake,
// configure or configure.ac → c-autotools, a *.sln or *.csproj (at the top
// or one directory down) → dotnet. Autotools comes before dotnet: C
// libraries often ship a Visual Studio solution beside their configure.ac,
// and configure is what builds them on both platforms here.
func DetectPreset(tree *cache.Tree) (string, error) {
	top := map[string]bool{}
	dotnet := false
	for _, e := range tree.Entries {
		if !strings.Contains(e.Path, "/") {
			top[e.Path] = true
		}
		ext := path.Ext(e.Path)
		if (ext == ".sln" || ext == ".csproj") && strings.Count(e.Path, "/") <= 1 {
			dotnet = true
		}
	}
	switch {
	case top["go.mod"]:
		return "go", nil
	case top["Cargo.toml"]:
		return "cargo", nil
	case top["CMakeLists.txt"]:
		return "c-cmake", nil
	case top["configure"] || top["configure.ac"]:
		return "c-autotools", nil
	case dotnet:
		return "dotnet", nil
	}
	return "", fmt.Errorf("cannot tell the language: the tree has no go.mod, Cargo.toml, CMakeLists.txt, configure or configure.ac at its top, and no *.sln or *.csproj; write the manifest by hand (presets in manifests/presets)")
}

// HostToolchain is the toolchain init pins for a preset when none is
// given: the host's go (`go env GOVERSION`) for go, rustc's version for
// cargo (the version the cargo preset's coverage is built for), nothing
// for the others, whose toolchain step records the installed tools.
func HostToolchain(ctx context.Context, preset string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	switch preset {
	case "go":
		out, err := exec.CommandContext(ctx, "go", "env", "GOVERSION").Output()
		if err != nil {
			return "", fmt.Errorf("go env GOVERSION: %v", err)
		}
		return strings.TrimSpace(string(out)), nil
	case "cargo":
		// The rustc the steps run, which is not always the first on this
		// process's PATH (a rustup install in ~/.cargo/bin).
		rustc, err := lookPath("rustc", toolenv.HostPath())
		if err != nil {
			return "", err
		}
		out, err := exec.CommandContext(ctx, rustc, "--version").Output()
		if err != nil {
			return "", fmt.Errorf("rustc --version: %v", err)
		}
		if m := rustcVersion.FindStringSubmatch(string(out)); m != nil {
			return m[1], nil
		}
		return "", fmt.Errorf("rustc --version: cannot read %q", strings.TrimSpace(string(out)))
	}
	return "", nil
}

// lookPath finds name in the directories of path.
func lookPath(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found in %s", name, path)
}

var rustcVersion = regexp.MustCompile(`^rustc ([0-9]+\.[0-9]+\.[0-9]+)`)
