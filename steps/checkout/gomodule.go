package checkout

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	modzip "golang.org/x/mod/zip"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/schemas"
)

// goDownload is what `go mod download -json` prints for one module.
type goDownload struct {
	Path, Version, Error, Zip, Sum string
	// GoMod is the file of the module's go.mod as the go command uses it:
	// the zip's own, or the one the proxy makes for a module published
	// without one.
	GoMod string
}

// checkoutGoModule fetches MODULE@VERSION with the go command into
// osbench's own module cache (so the user's GOMODCACHE is neither used nor
// touched), which checks it against the checksum database as a build would;
// then checks the zip's h1: hash itself and against the manifest's sum, and
// unpacks the zip, which holds the module's tests as published.
func checkoutGoModule(ctx context.Context, rc *engine.RunContext, cfg Config, dir string) (schemas.Provenance, error) {
	path, version, _ := strings.Cut(cfg.GoModule, "@")
	modcache, err := stateDir(rc, "gomod")
	if err != nil {
		return schemas.Provenance{}, err
	}
	query, err := os.MkdirTemp(rc.WorkDir, "gomod-query-")
	if err != nil {
		return schemas.Provenance{}, err
	}
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", cfg.GoModule)
	cmd.Dir = query // no go.mod here: the module is fetched on its own
	cmd.Env = goModuleEnv(modcache)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var d goDownload
	if err := json.Unmarshal(stdout.Bytes(), &d); err != nil {
		return schemas.Provenance{}, pinned(rc, "go_module", "go mod download %s: %v: %s", cfg.GoModule, runErr, strings.TrimSpace(stderr.String()))
	}
	if d.Error != "" || runErr != nil {
		why := firstNonEmpty(d.Error, strings.TrimSpace(stderr.String()), fmt.Sprint(runErr))
		if offline() {
			why += fmt.Sprintf(" (%s=1: only modules already in the mirror can be used)", OfflineEnv)
		}
		return schemas.Provenance{}, pinned(rc, "go_module", "go mod download %s: %s", cfg.GoModule, why)
	}
	// The go command trusts its own cache once a module is in it; hashing
	// the zip again means a cache edited behind its back is noticed.
	h1, err := dirhash.HashZip(d.Zip, dirhash.Hash1)
	if err != nil {
		return schemas.Provenance{}, err
	}
	if h1 != d.Sum {
		return schemas.Provenance{}, fmt.Errorf("go module %s: the zip in osbench's module cache hashes to %s, but the go command recorded %s; remove %s and run again", cfg.GoModule, h1, d.Sum, d.Zip)
	}
	if cfg.Sum != "" && cfg.Sum != h1 {
		return schemas.Provenance{}, pinned(rc, "sum", "go module %s: the module proxy's bytes hash to %s, but the manifest pins %s; refusing to build from bytes the manifest does not name", cfg.GoModule, h1, cfg.Sum)
	}
	if err := modzip.Unzip(dir, module.Version{Path: path, Version: version}, d.Zip); err != nil {
		return schemas.Provenance{}, fmt.Errorf("go module %s: %v", cfg.GoModule, err)
	}
	if err := addProxyGoMod(dir, d); err != nil {
		return schemas.Provenance{}, fmt.Errorf("go module %s: %v", cfg.GoModule, err)
	}
	rc.SetLabel(cfg.GoModule)
	return schemas.Provenance{Kind: "go_module", Repo: path, Version: version, Sum: h1}, nil
}

// addProxyGoMod gives a module published before Go modules (its zip holds
// no go.mod) the go.mod the go command builds it with as a dependency: the
// one the module proxy serves for that version (a module line and nothing
// else), whose hash the checksum database vouches for as it does the
// zip's. Without it `go test ./...` in the tree finds no main module and
// every test is build-failed on both platforms. A zip's own go.mod is
// never replaced.
func addProxyGoMod(dir string, d goDownload) error {
	target := filepath.Join(dir, "go.mod")
	if _, err := os.Lstat(target); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if d.GoMod == "" {
		return errors.New("the zip has no go.mod and the go command named none")
	}
	b, err := os.ReadFile(d.GoMod)
	if err != nil {
		return err
	}
	return os.WriteFile(target, b, 0o644)
}

// goModuleEnv is the environment of the fetch: the caller's proxy settings
// (a company mirror is fine, since the checksum database vouches for the
// bytes), but nothing that would skip that check for this module.
func goModuleEnv(modcache string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GOMODCACHE", "GOFLAGS", "GOPRIVATE", "GONOSUMDB", "GONOSUMCHECK", "GONOPROXY", "GOINSECURE", "GOTOOLCHAIN", "GO111MODULE", "GOWORK":
			continue
		case "GOSUMDB":
			if strings.TrimPrefix(kv, "GOSUMDB=") == "off" {
				continue // the default database, never none
			}
		}
		env = append(env, kv)
	}
	env = append(env, "GOMODCACHE="+modcache, "GOFLAGS=-mod=mod", "GO111MODULE=on", "GOTOOLCHAIN=local", "GOWORK=off")
	if offline() {
		env = append(env, "GOPROXY=off")
	}
	return env
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
