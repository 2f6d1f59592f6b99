package taskpkg

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sample is a small tree with the awkward cases: an executable, a link, a
// CRLF file that .gitattributes would normalise, a file .gitignore
// ignores, a nested directory, a non-ASCII name.
var sample = map[string]file{
	"go.mod":               {content: "module example.com/sample\n\ngo 1.22\n"},
	"main.go":              {content: "package main\n\nfunc main() {}\n"},
	"scripts/build.sh":     {content: "#!/bin/sh\necho build\n", exec: true},
	"docs/crlf.txt":        {content: "one\r\ntwo\r\n"},
	".gitattributes":       {content: "* text=auto\n"},
	".gitignore":           {content: "*.log\n"},
	"out/debug.log":        {content: "ignored by .gitignore, kept by WriteRepo\n"},
	"link-to-main":         {content: "main.go", link: true},
	"internal/été/x.go":    {content: "package été\n"},
	"internal/empty/.keep": {content: ""},
}

// sampleCommit is the commit WriteRepo makes of sample. It pins the fixed
// identity, date and message: if it changes, every task's base_commit does.
const sampleCommit = "d49016da6ad0897b9a094e8b104da7c13dc57085"

func TestWriteRepo(t *testing.T) {
	src := t.TempDir()
	writeFiles(t, src, sample)
	if err := os.MkdirAll(filepath.Join(src, ".git", "objects"), 0o755); err != nil { // a source's own repository
		t.Fatal(err)
	}
	writeFiles(t, src, map[string]file{"vendor/dep/.git": {content: "gitdir: elsewhere\n"}, "vendor/dep/dep.go": {content: "package dep\n"}})

	dir := filepath.Join(t.TempDir(), "repo")
	commit, err := WriteRepo(dir, src)
	if err != nil {
		t.Fatal(err)
	}

	want := map[string]file{"vendor/dep/dep.go": {content: "package dep\n"}}
	for k, v := range sample {
		want[k] = v
	}
	sameTree(t, readTree(t, dir), want)

	if n := strings.Count(run(t, dir, nil, "log", "--all", "--oneline"), "\n"); n != 1 {
		t.Errorf("git log shows %d commits, want 1", n)
	}
	if parents := run(t, dir, nil, "rev-list", "--parents", "HEAD"); strings.TrimSpace(parents) != commit {
		t.Errorf("root commit has parents: %q", parents)
	}
	if remotes := run(t, dir, nil, "remote"); remotes != "" {
		t.Errorf("remotes: %q", remotes)
	}
	if refs := run(t, dir, nil, "for-each-ref", "--format=%(refname)"); refs != "refs/heads/main\n" {
		t.Errorf("refs: %q", refs)
	}
	if head := strings.TrimSpace(run(t, dir, nil, "rev-parse", "HEAD")); head != commit {
		t.Errorf("HEAD = %s, WriteRepo returned %s", head, commit)
	}
	meta := run(t, dir, nil, "log", "-1", "--format=%an <%ae> %ad|%cn <%ce> %cd|%s", "--date=iso-strict-local")
	wantMeta := "osbench <osbench@osbench.invalid> 2000-01-01T00:00:00+00:00|osbench <osbench@osbench.invalid> 2000-01-01T00:00:00+00:00|Initial commit\n"
	if meta != wantMeta {
		t.Errorf("commit metadata = %q, want %q", meta, wantMeta)
	}
	// The committed blobs are the files' exact bytes: CRLF is not
	// normalised although .gitattributes asks for it.
	if blob := run(t, dir, nil, "cat-file", "blob", "HEAD:docs/crlf.txt"); blob != sample["docs/crlf.txt"].content {
		t.Errorf("committed docs/crlf.txt = %q", blob)
	}
	tree := run(t, dir, nil, "ls-tree", "-r", "HEAD")
	for _, entry := range []string{"100755 blob", "120000 blob"} {
		if !strings.Contains(tree, entry) {
			t.Errorf("no %q entry in\n%s", entry, tree)
		}
	}
	if staged := run(t, dir, nil, "diff-index", "--cached", "--name-only", "HEAD"); staged != "" {
		t.Errorf("index differs from HEAD: %q", staged)
	}
	if hooks, err := os.ReadDir(filepath.Join(dir, ".git", "hooks")); err == nil && len(hooks) > 0 {
		t.Errorf("repository has hook files: %v", hooks)
	}
}

func TestWriteRepoIsDeterministic(t *testing.T) {
	src := t.TempDir()
	writeFiles(t, src, sample)
	var commits []string
	for range 2 {
		dir := filepath.Join(t.TempDir(), "repo")
		commit, err := WriteRepo(dir, src)
		if err != nil {
			t.Fatal(err)
		}
		commits = append(commits, commit)
	}
	if commits[0] != commits[1] {
		t.Errorf("two writes of one tree gave %s and %s", commits[0], commits[1])
	}
	if commits[0] != sampleCommit {
		t.Errorf("commit = %s, want %s (the fixed identity, date or message changed?)", commits[0], sampleCommit)
	}
	// The user's git settings and a stray GIT_DIR do not leak in.
	t.Setenv("GIT_AUTHOR_NAME", "someone else")
	t.Setenv("GIT_COMMITTER_DATE", "1700000000 +0100")
	t.Setenv("GIT_DIR", filepath.Join(t.TempDir(), "elsewhere"))
	commit, err := WriteRepo(filepath.Join(t.TempDir(), "repo"), src)
	if err != nil {
		t.Fatal(err)
	}
	if commit != commits[0] {
		t.Errorf("the environment changed the commit: %s, want %s", commit, commits[0])
	}
}

func TestWriteRepoFixtures(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), name)
			commit, err := WriteRepo(dir, fixtureDir(name))
			if err != nil {
				t.Fatal(err)
			}
			sameTree(t, readTree(t, dir), readTree(t, fixtureDir(name)))
			// Written again later, the repository is the same bytes, .git
			// included (no wall clock in an index, a reflog or an object).
			time.Sleep(1100 * time.Millisecond) // a new second for mtimes and dates
			twin := filepath.Join(t.TempDir(), name)
			if _, err := WriteRepo(twin, fixtureDir(name)); err != nil {
				t.Fatal(err)
			}
			sameGitDir(t, filepath.Join(dir, ".git"), filepath.Join(twin, ".git"))
			if n := strings.Count(run(t, dir, nil, "log", "--all", "--oneline"), "\n"); n != 1 {
				t.Errorf("git log shows %d commits, want 1", n)
			}
			if status := run(t, dir, nil, "status", "--porcelain", "--ignored"); status != "" {
				t.Errorf("fresh repository is not clean:\n%s", status)
			}
			again, err := WriteRepo(filepath.Join(t.TempDir(), name), fixtureDir(name))
			if err != nil {
				t.Fatal(err)
			}
			if again != commit {
				t.Errorf("commit %s, then %s", commit, again)
			}
		})
	}
}

func TestWriteRepoRefuses(t *testing.T) {
	src := t.TempDir()
	writeFiles(t, src, map[string]file{"a.go": {content: "package a\n"}})
	full := t.TempDir()
	writeFiles(t, full, map[string]file{"x": {content: "x"}})
	notDir := filepath.Join(t.TempDir(), "file")
	writeFiles(t, filepath.Dir(notDir), map[string]file{"file": {content: "x"}})

	tests := []struct {
		name, dir, src string
		wantIs         error
	}{
		{"destination not empty", full, src, ErrNotEmpty},
		{"destination inside the source", filepath.Join(src, "out"), src, nil},
		{"destination is the source", src, src, nil},
		{"source missing", filepath.Join(t.TempDir(), "new"), filepath.Join(src, "missing"), os.ErrNotExist},
		{"source is a file", filepath.Join(t.TempDir(), "new"), notDir, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := WriteRepo(tt.dir, tt.src)
			if err == nil {
				t.Fatal("WriteRepo succeeded")
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("error %v is not %v", err, tt.wantIs)
			}
		})
	}
}

func TestWriteRepoEmptyTree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	if _, err := WriteRepo(dir, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if tree := strings.TrimSpace(run(t, dir, nil, "rev-parse", "HEAD^{tree}")); tree != "4b825dc642cb6eb9a060e54bf8d69288fbee4904" {
		t.Errorf("tree of an empty source = %s, want git's empty tree", tree)
	}
}

// sameGitDir fails the test unless two .git directories hold the same
// files with the same bytes.
func sameGitDir(t *testing.T, a, b string) {
	t.Helper()
	read := func(root string) map[string]string {
		files := map[string]string{}
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			files[filepath.ToSlash(rel)] = string(data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	fa, fb := read(a), read(b)
	for name, data := range fa {
		if other, ok := fb[name]; !ok {
			t.Errorf(".git/%s only in the first repository", name)
		} else if other != data {
			t.Errorf(".git/%s differs between two writes of the same tree", name)
		}
	}
	for name := range fb {
		if _, ok := fa[name]; !ok {
			t.Errorf(".git/%s only in the second repository", name)
		}
	}
}
