package libtest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
)

// cargoMetadataArgv lists the packages' targets as cargo resolves them
// (auto-discovered tests, paths, test and doctest flags) without touching
// dependencies or the network.
var cargoMetadataArgv = []string{"cargo", "metadata", "--no-deps", "--offline", "--format-version", "1"}

type cargoMetadata struct {
	Packages []struct {
		Name         string `json:"name"`
		ManifestPath string `json:"manifest_path"`
		Targets      []struct {
			Name    string   `json:"name"`
			Kind    []string `json:"kind"`
			SrcPath string   `json:"src_path"`
			Test    bool     `json:"test"`
			Doctest bool     `json:"doctest"`
		} `json:"targets"`
	} `json:"packages"`
}

// cargoManifest is the part of a Cargo.toml cargo metadata does not
// report: whether a target runs under libtest at all.
type cargoManifest struct {
	Lib *struct {
		Harness *bool `toml:"harness"`
	} `toml:"lib"`
	Bin   []cargoTarget `toml:"bin"`
	Test  []cargoTarget `toml:"test"`
	Bench []cargoTarget `toml:"bench"`
}

type cargoTarget struct {
	Name    string `toml:"name"`
	Harness *bool  `toml:"harness"`
}

// cargoDefinitions turns cargo metadata's targets, with each target's
// harness setting from its Cargo.toml, into test definitions: a patch that
// swaps a test target for a program of its own (harness = false, another
// path) changes them. Paths are made relative to the repository.
func cargoDefinitions(metadata []byte, repo string, readUntrusted func(dir, name string) ([]byte, error)) (*schemas.TestDefinitions, error) {
	var md cargoMetadata
	if err := json.Unmarshal(metadata, &md); err != nil {
		return nil, fmt.Errorf("cargo metadata: %w", err)
	}
	var defs []schemas.TestDefinition
	for _, p := range md.Packages {
		harness := map[string]string{} // "kind:name" → "false"
		if rel, ok := relativeTo(repo, p.ManifestPath); ok {
			if b, err := readUntrusted(repo, rel); err == nil {
				var m cargoManifest
				if _, err := toml.Decode(string(b), &m); err == nil {
					if m.Lib != nil && m.Lib.Harness != nil {
						harness["lib:"] = strconv.FormatBool(*m.Lib.Harness)
					}
					for kind, ts := range map[string][]cargoTarget{"bin": m.Bin, "test": m.Test, "bench": m.Bench} {
						for _, t := range ts {
							if t.Harness != nil {
								harness[kind+":"+t.Name] = strconv.FormatBool(*t.Harness)
							}
						}
					}
				}
			}
		}
		for _, t := range p.Targets {
			kind := strings.Join(t.Kind, ",")
			src := t.SrcPath
			if rel, ok := relativeTo(repo, src); ok {
				src = rel
			}
			h := "true"
			key := kind + ":" + t.Name
			if strings.Contains(kind, "lib") || kind == "proc-macro" { // [lib] covers every library kind
				key = "lib:"
			}
			if v, ok := harness[key]; ok {
				h = v
			}
			defs = append(defs, schemas.TestDefinition{
				Name:    p.Name + "/" + kind + "/" + t.Name,
				Command: []string{src},
				Properties: map[string]string{
					"test": strconv.FormatBool(t.Test), "doctest": strconv.FormatBool(t.Doctest), "harness": h,
				},
			})
		}
	}
	defs = append(defs, cargoConfigDefinitions(repo, readUntrusted)...)
	return runner.NewDefinitions("cargo", defs)
}

// cargoConfigHarmless are the tables of a .cargo/config that change
// neither what a build runs nor what a test program sees.
var cargoConfigHarmless = []string{"alias", "term", "cargo-new", "doc", "future-incompat-report", "http", "net"}

// cargoConfigDefinitions are the repository's .cargo/config files, which
// cargo reads for every command run at the root: their program keys are
// overridden by variables (toolenv.Offline), but what no variable beats —
// [env] for build scripts, rustc and test programs, build script overrides
// of [target.<triple>.<links>], build.target — decides what runs as much
// as a test target does. Each file is one definition holding its parsed
// content (sorted JSON, so comments and layout do not count); a
// repository without one, or with only harmless tables, has none, so its
// digest is what it was.
func cargoConfigDefinitions(repo string, readUntrusted func(dir, name string) ([]byte, error)) []schemas.TestDefinition {
	var defs []schemas.TestDefinition
	for _, name := range []string{".cargo/config", ".cargo/config.toml"} {
		b, err := readUntrusted(repo, name)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				defs = append(defs, schemas.TestDefinition{Name: "cargo-config/" + name, Command: []string{"unreadable"}})
			}
			continue
		}
		var doc map[string]any
		content := ""
		if _, err := toml.Decode(string(b), &doc); err != nil {
			sum := sha256.Sum256(b)
			content = "unparsable sha256:" + hex.EncodeToString(sum[:])
		} else {
			for _, k := range cargoConfigHarmless {
				delete(doc, k)
			}
			j, err := json.Marshal(doc) // map keys sorted at every level
			if err != nil {
				j = []byte(err.Error())
			}
			if content = string(j); content == "{}" {
				continue // only harmless tables: as if there were none
			}
		}
		defs = append(defs, schemas.TestDefinition{Name: "cargo-config/" + name, Command: []string{content}})
	}
	return defs
}

// relativeTo makes an absolute path under repo relative (slash-separated).
func relativeTo(repo, p string) (string, bool) {
	rel, err := filepath.Rel(repo, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
