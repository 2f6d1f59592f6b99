package patchapply

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/osbench/osbench/plugins/taskpkg"
)

// newApplier makes a git repository of files under a fresh directory and
// returns the applier for it and the directory above the repository.
func newApplier(t *testing.T, files map[string]string) (*applier, string) {
	t.Helper()
	root := t.TempDir()
	pristine := filepath.Join(root, "pristine")
	writeEntries(t, pristine, files)
	repo := filepath.Join(root, "work", "repo")
	if _, err := taskpkg.WriteRepo(repo, pristine); err != nil {
		t.Fatal(err)
	}
	a := &applier{repo: repo, log: io.Discard}
	if err := a.prepare(); err != nil {
		t.Fatal(err)
	}
	return a, root
}

// The header rules are the first wall; the tools and the link check are
// the second. Fed hostile patches with the rules skipped, no tool may write
// outside the repository, and a link out must be caught after the fact.
func TestToolsAloneKeepInside(t *testing.T) {
	hostile := map[string]string{
		"dot-dot":      "--- /dev/null\n+++ b/../../pwned\n@@ -0,0 +1 @@\n+pwned\n",
		"rename out":   "diff --git a/f.txt b/../pwned\nsimilarity index 100%\nrename from f.txt\nrename to ../pwned\n",
		"through link": "--- a/out/sentinel.txt\n+++ b/out/sentinel.txt\n@@ -1 +1 @@\n-sentinel\n+pwned\n",
		"link out":     "diff --git a/evil b/evil\nnew file mode 120000\n--- /dev/null\n+++ b/evil\n@@ -0,0 +1 @@\n+../../outside\n\\ No newline at end of file\n",
	}
	for name, patch := range hostile {
		t.Run(name, func(t *testing.T) {
			outside := t.TempDir()
			writeEntries(t, outside, map[string]string{"sentinel.txt": sentinel})
			a, root := newApplier(t, map[string]string{"f.txt": "f\n", "out": "-> " + outside})
			writeEntries(t, root, map[string]string{"sentinel.txt": sentinel})
			before := snapshot(t, root, a.repo)
			method, _, err := a.apply(context.Background(), []byte(patch))
			if err != nil {
				t.Fatal(err)
			}
			if after := snapshot(t, root, a.repo); !reflect.DeepEqual(after, before) {
				t.Errorf("%s changed files outside the repository:\n before %q\n after  %q", method, before, after)
			}
			if got := snapshot(t, outside); !reflect.DeepEqual(got, map[string]string{"sentinel.txt": sentinel}) {
				t.Errorf("%s wrote through the link: %q", method, got)
			}
			if method == "" {
				return
			}
			reason, err := checkLinks(a.repo, filepath.Join(root, "pristine"))
			if err != nil {
				t.Fatal(err)
			}
			if reason == "" {
				t.Errorf("%s applied the patch and no link check caught it", method)
			}
		})
	}
}

// A repository's own .gitattributes must not make a reset tree differ
// from the task's bytes.
func TestResetKeepsBytesDespiteAttributes(t *testing.T) {
	files := map[string]string{".gitattributes": "* text eol=crlf\n", "a.txt": "one\ntwo\n"}
	a, _ := newApplier(t, files)
	method, msg, err := a.apply(context.Background(), []byte("--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n"))
	if err != nil || method == "" {
		t.Fatalf("method %q, %v: %s", method, err, msg)
	}
	if b, _ := os.ReadFile(filepath.Join(a.repo, "a.txt")); string(b) != "one\nthree\n" {
		t.Errorf("patched a.txt = %q", b)
	}
	if err := a.reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, a.repo, filepath.Join(a.repo, ".git")); !reflect.DeepEqual(got, files) {
		t.Errorf("after reset %q, want %q", got, files)
	}
}

func TestToolMissingIsAnError(t *testing.T) {
	a, _ := newApplier(t, map[string]string{"f.txt": "f\n"})
	t.Setenv("PATH", t.TempDir())
	if _, _, err := a.apply(context.Background(), []byte("--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-f\n+g\n")); err == nil {
		t.Error("no error without git and patch on PATH")
	}
}
