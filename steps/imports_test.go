package steps

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// A step kind is a pure function of its declared inputs; what two kinds
// share (artifact shapes, tool environments) lives in schemas or plugins.
// So no package that registers a kind may import another that does:
// otherwise a change in one kind's code changes another's results without
// its version saying so. Only the packages that assemble steps (pipeline/:
// the compiler, the evaluation driver, osbench init) import kinds, and
// steps/ holds nothing but kinds (and all.go, which lists them), so that
// its listing says what the kinds are.
func TestStepKindsImportNoOtherKind(t *testing.T) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports,GoFiles", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	type pkg struct {
		ImportPath string
		Imports    []string
		GoFiles    []string
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	kinds := map[string]bool{}
	for _, p := range pkgs {
		if registersKind(t, p.ImportPath) {
			kinds[p.ImportPath] = true
		}
	}
	if len(kinds) < 10 {
		t.Fatalf("found %d packages registering step kinds, want every kind's package", len(kinds))
	}
	for _, p := range pkgs {
		if strings.HasPrefix(p.ImportPath, "github.com/osbench/osbench/steps/") && !kinds[p.ImportPath] {
			t.Errorf("%s registers no step kind: steps/ holds step kinds only (libraries the kinds share go to plugins/ or schemas/, what assembles steps to pipeline/)", p.ImportPath)
		}
		if p.ImportPath == "github.com/osbench/osbench/steps" {
			listed := map[string]bool{}
			for _, imp := range p.Imports {
				listed[imp] = true
			}
			for k := range kinds {
				if !listed[k] {
					t.Errorf("steps/all.go does not import step kind %s", k)
				}
			}
		}
		if !kinds[p.ImportPath] {
			continue
		}
		for _, imp := range p.Imports {
			if kinds[imp] {
				t.Errorf("step kind %s imports step kind %s: share through schemas or plugins", p.ImportPath, imp)
			}
		}
	}
}

// registersKind reports whether a package's non-test code calls
// engine.RegisterKind.
func registersKind(t *testing.T, importPath string) bool {
	out, err := exec.Command("go", "list", "-f", `{{range .GoFiles}}{{$.Dir}}/{{.}} {{end}}`, importPath).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", importPath, err)
	}
	files := strings.Fields(string(out))
	if len(files) == 0 {
		return false
	}
	grep, _ := exec.Command("grep", append([]string{"-l", "engine.RegisterKind("}, files...)...).Output()
	return len(strings.TrimSpace(string(grep))) > 0
}

// Plugins are what step kinds are built from (parsers, executors, probes,
// rule sets), so none may import a kind: a plugin importing a kind's
// package would make the kind a library, and its code a dependency of
// everything the plugin serves (the Temporal worker once took the tool
// probes from steps/toolchain).
func TestPluginsImportNoStepKind(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps=false", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "github.com/osbench/osbench/plugins/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		n++
		for _, imp := range fields[1:] {
			if imp == "github.com/osbench/osbench/steps" || strings.HasPrefix(imp, "github.com/osbench/osbench/steps/") {
				t.Errorf("%s imports %s: plugins may not import step kinds (move what both need into plugins/)", fields[0], imp)
			}
		}
	}
	if n < 10 {
		t.Fatalf("go list found %d packages under plugins/, want all of them", n)
	}
}
