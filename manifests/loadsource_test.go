package manifests

import (
	"path/filepath"
	"strings"
	"testing"
)

// LoadSource reads bytes as if they were the named file: a relative path
// is resolved against that file's directory, and errors point into it.
func TestLoadSource(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "m", "x.hcl")
	src := []byte("repository \"x\" {\n  preset = \"go\"\n  source {\n    path = \"../repo\"\n  }\n  migrate = [\"linux->windows\"]\n}\n")
	set, diags := LoadSource(name, src, LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got, want := set.Repositories[0].Source.Path, filepath.Join(dir, "repo"); got != want {
		t.Errorf("path = %q, want %q", got, want)
	}
	if string(set.Sources[name]) != string(src) {
		t.Errorf("Sources[%q] is not the bytes given", name)
	}

	_, diags = LoadSource(name, []byte("repository \"x\" {\n  preset = 3 +\n}\n"), LoadOptions{})
	if !diags.HasErrors() || diags[0].Subject == nil || !strings.Contains(diags[0].Subject.String(), "x.hcl:2,") {
		t.Errorf("diagnostics %v: want an error at x.hcl:2", diags)
	}
}
