package taskpkg

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// applyGold checks the contract of GoldPatch: in a copy of the masked
// repository, `git apply` of the patch reproduces the original byte for
// byte. It returns the patch.
func applyGold(t *testing.T, masked, original string) string {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "masked")
	if _, err := WriteRepo(repo, masked); err != nil {
		t.Fatal(err)
	}
	patch, err := GoldPatch(repo, original)
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(t.TempDir(), "work")
	copyDir(t, work, repo)
	if patch != "" {
		run(t, work, []byte(patch), "apply", "--whitespace=nowarn", "-")
	}
	sameTree(t, readTree(t, work), readTree(t, original))
	return patch
}

func TestGoldPatchRestoresTheOriginal(t *testing.T) {
	tests := []struct {
		name             string
		masked, original map[string]file
	}{
		{
			name:     "a masked function body",
			masked:   map[string]file{"sep.go": {content: "package p\n\nfunc IsSeparator(c byte) bool {\n\treturn false\n}\n"}},
			original: map[string]file{"sep.go": {content: "package p\n\nfunc IsSeparator(c byte) bool {\n\treturn c == '\\\\' || c == '/'\n}\n"}},
		},
		{
			name:     "CRLF lines and a missing final newline",
			masked:   map[string]file{"eol.txt": {content: "a\r\nb\r\n"}, "last.go": {content: "package p"}},
			original: map[string]file{"eol.txt": {content: "a\r\nwindows\r\nb\r\n"}, "last.go": {content: "package p\n\nconst X = 1"}},
		},
		{
			name:     "binary content",
			masked:   map[string]file{"icon.bin": {content: "\x00\x01\x02\xff"}},
			original: map[string]file{"icon.bin": {content: "\x00\x01\x02\xfe\x00\x00"}},
		},
		{
			name:     "a file added, a file removed, a mode changed",
			masked:   map[string]file{"stub_windows.go": {content: "package p\n"}, "run.sh": {content: "#!/bin/sh\n"}},
			original: map[string]file{"attrs_windows.go": {content: "package p\n\nimport \"syscall\"\n"}, "run.sh": {content: "#!/bin/sh\n", exec: true}},
		},
		{
			name:     "a symbolic link retargeted",
			masked:   map[string]file{"current": {content: "posix.c", link: true}, "posix.c": {content: "x"}, "win32.c": {content: "y"}},
			original: map[string]file{"current": {content: "win32.c", link: true}, "posix.c": {content: "x"}, "win32.c": {content: "y"}},
		},
		{
			name:     "names with spaces, quotes and non-ASCII letters",
			masked:   map[string]file{`dir/a "b" c.go`: {content: "1\n"}, "été/ü.rs": {content: "fn a() {}\n"}},
			original: map[string]file{`dir/a "b" c.go`: {content: "2\n"}, "été/ü.rs": {content: "fn a() { b() }\n"}},
		},
		{
			name:     ".gitattributes asking for conversion changes nothing",
			masked:   map[string]file{".gitattributes": {content: "* text eol=lf\n*.go diff=golang\n"}, "a.go": {content: "x\r\n"}},
			original: map[string]file{".gitattributes": {content: "* text eol=lf\n*.go diff=golang\n"}, "a.go": {content: "x\r\ny\r\n"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			masked, original := t.TempDir(), t.TempDir()
			writeFiles(t, masked, tt.masked)
			writeFiles(t, original, tt.original)
			patch := applyGold(t, masked, original)
			if !strings.HasPrefix(patch, "diff --git a/") && !strings.HasPrefix(patch, `diff --git "a/`) {
				t.Errorf("patch does not start with a git header:\n%s", patch)
			}
			for _, dir := range []string{masked, original, os.TempDir()} {
				if strings.Contains(patch, dir) {
					t.Errorf("patch mentions %s:\n%s", dir, patch)
				}
			}
		})
	}
}

func TestGoldPatchOfIdenticalTreesIsEmpty(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, sample)
	repo := filepath.Join(t.TempDir(), "repo")
	if _, err := WriteRepo(repo, dir); err != nil {
		t.Fatal(err)
	}
	patch, err := GoldPatch(repo, dir) // repo's .git is not part of the tree
	if err != nil {
		t.Fatal(err)
	}
	if patch != "" {
		t.Errorf("patch between identical trees:\n%s", patch)
	}
}

// TestGoldPatchFixtures masks every fixture repository the crude way
// maskLines does and restores it with the gold patch.
func TestGoldPatchFixtures(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			masked := filepath.Join(t.TempDir(), name)
			copyDir(t, masked, fixtureDir(name))
			if n := maskLines(t, masked); n == 0 {
				t.Fatalf("nothing to mask in %s", name)
			}
			patch := applyGold(t, masked, fixtureDir(name))
			if patch == "" {
				t.Fatal("empty patch for a masked tree")
			}
			// Applied in reverse to the original, the patch gives the masked tree back.
			back := filepath.Join(t.TempDir(), "back")
			copyDir(t, back, fixtureDir(name))
			run(t, back, []byte(patch), "apply", "--reverse", "--whitespace=nowarn", "-")
			sameTree(t, readTree(t, back), readTree(t, masked))
		})
	}
}

func TestGoldPatchGolden(t *testing.T) {
	masked, original := t.TempDir(), t.TempDir()
	writeFiles(t, masked, map[string]file{
		"pathsep.go": {content: "package pathsep\n\nfunc IsSeparator(c byte) bool {\n\treturn c == '/'\n}\n"},
		"gone.go":    {content: "package pathsep\n"},
	})
	writeFiles(t, original, map[string]file{
		"pathsep.go": {content: "package pathsep\n\nimport \"path/filepath\"\n\nfunc IsSeparator(c byte) bool {\n\treturn c == '/' || c == filepath.Separator\n}\n"},
		"new.go":     {content: "package pathsep\n\nconst Windows = true\n"},
	})
	golden(t, "goldpatch.golden", []byte(applyGold(t, masked, original)))
}

func TestGoldPatchRejects(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]file{"a": {content: "x"}})
	tests := []struct{ name, masked, original string }{
		{"masked missing", filepath.Join(dir, "missing"), dir},
		{"original missing", dir, filepath.Join(dir, "missing")},
		{"masked is a file", filepath.Join(dir, "a"), dir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if patch, err := GoldPatch(tt.masked, tt.original); err == nil {
				t.Errorf("GoldPatch succeeded: %q", patch)
			}
		})
	}
}
