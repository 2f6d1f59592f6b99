package patchapply

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/checkout"
)

// The task repository every step test patches. A value starting with "-> "
// is a symbolic link's target.
const (
	wGo = "package w\n\n// One says hello.\nfunc One() string {\n\treturn \"hello\"\n}\n\n// Two says bye.\nfunc Two() string {\n\treturn \"bye\"\n}\n"
	// aOld is an earlier a.txt, kept in the repository as old/a.txt, so
	// its blob is there for git apply --3way; a.txt has since changed l6.
	aOld       = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\n"
	aNow       = "l1\nl2\nl3\nl4\nl5\nL6 changed\nl7\nl8\nl9\nl10\nl11\nl12\n"
	wTest      = "package w\n\n// the task's test\n"
	sentinel   = "sentinel\n"
	patchedBye = "package w\n\n// One says hello.\nfunc One() string {\n\treturn \"hello\"\n}\n\n// Two says bye.\nfunc Two() string {\n\treturn \"ciao\"\n}\n"
)

func taskFiles(outside string) map[string]string {
	return map[string]string{
		"w.go":        wGo,
		"go.mod":      "module w\n\ngo 1.22\n",
		"w_test.go":   wTest,
		"a.txt":       aNow,
		"old/a.txt":   aOld,
		"src/util.go": "package src\n",
		"lib":         "-> src",
		"outlink":     "-> " + outside,
	}
}

// stepCase is one patch run through the apply step.
type stepCase struct {
	name  string
	patch string
	want  schemas.ApplyResult // Reason is matched as a substring
	// tree lists files the patched tree must hold (content, or "" for a
	// file that must be absent); only checked when the patch applied.
	tree map[string]string
}

// gitBlob is the id git gives content.
func gitBlob(t *testing.T, content string) string {
	t.Helper()
	cmd := exec.Command("git", "hash-object", "--stdin")
	cmd.Stdin = strings.NewReader(content)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func stepCases(t *testing.T, root string) []stepCase {
	none := []string{}
	threeWay := "diff --git a/a.txt b/a.txt\nindex " + gitBlob(t, aOld) + ".." +
		gitBlob(t, strings.Replace(aOld, "l9\n", "l9 patched\n", 1)) + " 100644\n--- a/a.txt\n+++ b/a.txt\n" +
		"@@ -6,7 +6,7 @@\n l6\n l7\n l8\n-l9\n+l9 patched\n l10\n l11\n l12\n"
	return []stepCase{
		{
			name: "clean",
			patch: "diff --git a/w.go b/w.go\n--- a/w.go\n+++ b/w.go\n@@ -2,5 +2,5 @@\n \n // One says hello.\n func One() string {\n" +
				"-\treturn \"hello\"\n+\treturn \"hi\"\n }\n" +
				"diff --git a/doc.txt b/doc.txt\nnew file mode 100644\n--- /dev/null\n+++ b/doc.txt\n@@ -0,0 +1 @@\n+docs\n",
			want: schemas.ApplyResult{Outcome: "applied", Method: "git-apply", Files: []string{"doc.txt", "w.go"}, RestoredTestFiles: none},
			tree: map[string]string{"doc.txt": "docs\n", "w.go": strings.Replace(wGo, `"hello"`, `"hi"`, 1), "w_test.go": wTest},
		},
		{
			// The builds run offline with the task's locked set: a new
			// requirement is refused before anything runs.
			name:  "dependency outside the locked set",
			patch: "--- a/go.mod\n+++ b/go.mod\n@@ -1,3 +1,5 @@\n module w\n \n go 1.22\n+\n+require example.com/w v1.0.0\n",
			want:  schemas.ApplyResult{Outcome: "patch-rejected", Reason: "patch adds dependency example.com/w@v1.0.0 not in the task's locked set", Files: []string{"go.mod"}, RestoredTestFiles: none},
		},
		{
			name:  "three-way",
			patch: threeWay,
			want:  schemas.ApplyResult{Outcome: "applied", Method: "git-3way", Files: []string{"a.txt"}, RestoredTestFiles: none},
			tree:  map[string]string{"a.txt": strings.Replace(aNow, "l9\n", "l9 patched\n", 1), "old/a.txt": aOld},
		},
		{
			// Wrong line numbers and a drifted first context line: git apply
			// wants exact context, there is no blob for --3way, GNU patch
			// finds the place with fuzz.
			name:  "fuzz",
			patch: "--- a/w.go\n+++ b/w.go\n@@ -20,4 +20,4 @@\n // Two says goodbye.\n func Two() string {\n-\treturn \"bye\"\n+\treturn \"ciao\"\n }\n",
			want:  schemas.ApplyResult{Outcome: "applied", Method: "patch-fuzz", Files: []string{"w.go"}, RestoredTestFiles: none},
			tree:  map[string]string{"w.go": patchedBye},
		},
		{
			name: "test files restored",
			patch: "--- a/w_test.go\n+++ b/w_test.go\n@@ -1,3 +1,3 @@\n package w\n \n-// the task's test\n+// the agent's test\n" +
				"--- /dev/null\n+++ b/extra_test.go\n@@ -0,0 +1 @@\n+package w\n" +
				"--- a/w.go\n+++ b/w.go\n@@ -10,2 +10,2 @@\n-\treturn \"bye\"\n+\treturn \"ciao\"\n }\n",
			want: schemas.ApplyResult{Outcome: "applied", Method: "git-apply", Files: []string{"extra_test.go", "w.go", "w_test.go"},
				RestoredTestFiles: []string{"extra_test.go", "w_test.go"}},
			tree: map[string]string{"w_test.go": wTest, "extra_test.go": "", "w.go": patchedBye},
		},
		{
			name:  "empty",
			patch: " \n\t\n",
			want:  schemas.ApplyResult{Outcome: "applied", Method: "empty", Files: none, RestoredTestFiles: none},
			tree:  map[string]string{"w.go": wGo, "lib": "-> src"},
		},
		{
			name:  "garbage",
			patch: "this is not\na patch\n",
			want:  schemas.ApplyResult{Outcome: "patch-failed", Reason: "Only garbage", Files: none, RestoredTestFiles: none},
		},
		{
			name:  "stale context",
			patch: "--- a/w.go\n+++ b/w.go\n@@ -1,3 +1,3 @@\n package nothing\n-like\n+this\n here\n",
			want:  schemas.ApplyResult{Outcome: "patch-failed", Reason: "FAILED", Files: []string{"w.go"}, RestoredTestFiles: none},
		},
		{
			name:  "dot-dot path",
			patch: "--- /dev/null\n+++ b/../../../../pwned-rel\n@@ -0,0 +1 @@\n+pwned\n",
			want:  schemas.ApplyResult{Outcome: "patch-rejected", Reason: `"b/../../../../pwned-rel" leaves the repository`, Files: []string{"../../../../pwned-rel"}, RestoredTestFiles: none},
		},
		{
			name:  "absolute path",
			patch: "--- /dev/null\n+++ " + root + "/pwned-abs\n@@ -0,0 +1 @@\n+pwned\n",
			want:  schemas.ApplyResult{Outcome: "patch-rejected", Reason: "is absolute", Files: []string{strings.TrimPrefix(root, "/") + "/pwned-abs"}, RestoredTestFiles: none},
		},
		{
			name:  "symlink out of the repository",
			patch: "diff --git a/evil b/evil\nnew file mode 120000\n--- /dev/null\n+++ b/evil\n@@ -0,0 +1 @@\n+../../outside\n\\ No newline at end of file\n",
			want:  schemas.ApplyResult{Outcome: "patch-rejected", Reason: `symbolic link "evil" -> "../../outside" points outside`, Files: []string{"evil"}, RestoredTestFiles: none},
		},
		{
			name:  "symlink to /etc/passwd",
			patch: "diff --git a/src/pw b/src/pw\nnew file mode 120000\n--- /dev/null\n+++ b/src/pw\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n",
			want:  schemas.ApplyResult{Outcome: "patch-rejected", Reason: `"/etc/passwd" is absolute`, Files: []string{"src/pw"}, RestoredTestFiles: none},
		},
		{
			name:  "rename out",
			patch: "diff --git a/a.txt b/../x\nsimilarity index 100%\nrename from a.txt\nrename to ../x\n",
			want:  schemas.ApplyResult{Outcome: "patch-rejected", Reason: `"../x" leaves the repository`, Files: []string{"../x", "a.txt"}, RestoredTestFiles: none},
		},
		{
			name:  "write through a link out",
			patch: "--- a/outlink/sentinel.txt\n+++ b/outlink/sentinel.txt\n@@ -1 +1 @@\n-sentinel\n+pwned\n",
			want:  schemas.ApplyResult{Outcome: "patch-rejected", Reason: `through the symbolic link "outlink"`, Files: []string{"outlink/sentinel.txt"}, RestoredTestFiles: none},
		},
		{
			name:  "write through a link in",
			patch: "--- a/lib/util.go\n+++ b/lib/util.go\n@@ -1 +1 @@\n-package src\n+package lib\n",
			want:  schemas.ApplyResult{Outcome: "patch-rejected", Reason: `through the symbolic link "lib"`, Files: []string{"lib/util.go"}, RestoredTestFiles: none},
		},
		{
			name:  "git metadata",
			patch: "--- /dev/null\n+++ b/.git/hooks/post-checkout\n@@ -0,0 +1 @@\n+touch pwned\n",
			want:  schemas.ApplyResult{Outcome: "patch-rejected", Reason: ".git", Files: []string{".git/hooks/post-checkout"}, RestoredTestFiles: none},
		},
	}
}

// writeEntries creates files and links (values "-> target") under dir.
func writeEntries(t *testing.T, dir string, entries map[string]string) {
	t.Helper()
	for name, content := range entries {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(content, "-> "); ok {
			err = os.Symlink(target, p)
		} else {
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot reads every file and link under dir, except skipped subtrees.
func snapshot(t *testing.T, dir string, skip ...string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		for _, s := range skip {
			if p == s {
				return filepath.SkipDir
			}
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			files[rel] = "-> " + target
			return err
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			files[rel] = string(b)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestApplyStep(t *testing.T) {
	root := t.TempDir()
	cacheDir := filepath.Join(root, "cache")
	c, err := cache.Open(cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	workBase, err := c.Subdir("work")
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(root, "outside")
	src := filepath.Join(root, "task")
	writeEntries(t, root, map[string]string{"sentinel.txt": sentinel, "outside/sentinel.txt": sentinel})
	writeEntries(t, workBase, map[string]string{"sentinel.txt": sentinel})
	writeEntries(t, src, taskFiles(outside))
	before := snapshot(t, root, cacheDir)

	tree, err := checkout.HashLocal(src)
	if err != nil {
		t.Fatal(err)
	}
	steps := []*engine.Step{{
		ID: "r/checkout", Kind: checkout.Kind, Group: "r",
		Config: []engine.Field{{Name: "tree", Value: tree}},
		Local:  map[string]string{checkout.LocalPath: src},
	}}
	cases := stepCases(t, root)
	for _, tc := range cases {
		d, err := c.PutBytes([]byte(tc.patch))
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, &engine.Step{
			ID: "r/apply/" + tc.name, Kind: Kind, Group: "r",
			Config: []engine.Field{{Name: "instance_id", Value: "r"}, {Name: "patch", Value: string(d)}},
			Inputs: []engine.Input{{Name: InputSource, Step: "r/checkout"}},
		})
	}
	g, err := engine.NewGraph(steps)
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(c, engine.Options{Jobs: 2, KeepGoing: true})
	rep, err := eng.Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := rep.Step("r/apply/" + tc.name)
			if res.Status != engine.StatusRan {
				t.Fatalf("status %s: %s", res.Status, res.Error)
			}
			arts, err := eng.Artifacts(res)
			if err != nil {
				t.Fatal(err)
			}
			var got schemas.ApplyResult
			if err := arts.DecodeJSON(OutputApply, &got); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got.Reason, tc.want.Reason) || tc.want.Reason == "" && got.Reason != "" {
				t.Errorf("reason = %q, want it to contain %q", got.Reason, tc.want.Reason)
			}
			got.Reason, tc.want.Reason = "", ""
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("apply.json:\n got %+v\nwant %+v", got, tc.want)
			}
			if applied := tc.want.Outcome == schemas.ApplyApplied; arts.Has(OutputSource) != applied {
				t.Fatalf("tree present = %v, applied = %v", arts.Has(OutputSource), applied)
			}
			if !arts.Has(OutputSource) {
				return
			}
			dir := t.TempDir()
			if err := arts.Materialize(OutputSource, dir); err != nil {
				t.Fatal(err)
			}
			files := snapshot(t, dir)
			if _, ok := files[".git"]; ok {
				t.Error("the tree holds .git")
			}
			for name, want := range tc.tree {
				if got, ok := files[name]; want == "" && ok || want != "" && got != want {
					t.Errorf("%s = %q (present %v), want %q", name, got, ok, want)
				}
			}
		})
	}
	if got := rep.Step("r/apply/clean").Label; got != "git-apply, 2 files" {
		t.Errorf("label = %q", got)
	}
	if got := rep.Step("r/apply/dot-dot path").Label; !strings.HasPrefix(got, "patch-rejected: ") {
		t.Errorf("label = %q", got)
	}

	// Nothing outside the work dirs changed, and the work dirs are gone.
	if after := snapshot(t, root, cacheDir); !reflect.DeepEqual(after, before) {
		t.Errorf("files outside the cache changed:\n before %q\n after  %q", before, after)
	}
	if got := snapshot(t, workBase); !reflect.DeepEqual(got, map[string]string{"sentinel.txt": sentinel}) {
		t.Errorf("work dir base holds %q", got)
	}
}
