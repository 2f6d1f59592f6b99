package manifests

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{{
		name: "aligns equals and indents",
		in:   "repository \"x\" {\nsource {\npath=\"p\"\n}\nmigrate=[\"linux->windows\"]\nflaky_runs   =  3\n}\n",
		want: "repository \"x\" {\n  source {\n    path = \"p\"\n  }\n  migrate    = [\"linux->windows\"]\n  flaky_runs = 3\n}\n",
	}, {
		name: "keeps comments",
		in:   "locals {\n  # why\n  a=1 # trailing\n}\n",
		want: "locals {\n  # why\n  a = 1 # trailing\n}\n",
	}, {
		name: "canonical input is unchanged",
		in:   "locals {\n  a = 1\n}\n",
		want: "locals {\n  a = 1\n}\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(Format([]byte(tt.in))); got != tt.want {
				t.Errorf("Format:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// The manifests under testdata/valid are the examples people copy: keep
// them canonical.
func TestValidManifestsAreFormatted(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*.hcl")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if string(Format(src)) != string(src) {
			t.Errorf("%s is not canonically formatted", file)
		}
	}
}

func TestFormatFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"messy.hcl":  "locals {\na=1\n}\n",
		"clean.hcl":  "locals {\n  a = 1\n}\n",
		"broken.hcl": "locals {\na=\n",
	})
	if err := os.Chmod(filepath.Join(dir, "messy.hcl"), 0o600); err != nil {
		t.Fatal(err)
	}

	changed, err := FormatFile(filepath.Join(dir, "messy.hcl"))
	if err != nil || !changed {
		t.Fatalf("messy.hcl: changed=%v err=%v, want a change", changed, err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "messy.hcl"))
	if string(got) != "locals {\n  a = 1\n}\n" {
		t.Errorf("messy.hcl now holds %q", got)
	}
	if info, err := os.Stat(filepath.Join(dir, "messy.hcl")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("mode not kept: %v %v", info.Mode(), err)
	}

	if changed, err := FormatFile(filepath.Join(dir, "clean.hcl")); err != nil || changed {
		t.Errorf("clean.hcl: changed=%v err=%v, want no change", changed, err)
	}

	if _, err := FormatFile(filepath.Join(dir, "broken.hcl")); err == nil {
		t.Errorf("broken.hcl: want a syntax error")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "broken.hcl")); string(got) != "locals {\na=\n" {
		t.Errorf("broken.hcl was modified: %q", got)
	}

	if _, err := FormatFile(filepath.Join(dir, "absent.hcl")); err == nil {
		t.Errorf("absent.hcl: want an error")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("temporary files left behind: %d entries", len(entries))
	}
}
