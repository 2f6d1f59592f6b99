package patchapply

import (
	"reflect"
	"strings"
	"testing"
)

// change is the part of a fileChange a header test compares.
type change struct {
	Old, New         string
	OldMode, NewMode string
	Paths            []string
	Link             string
}

func summarize(h *patchHeaders) []change {
	var out []change
	for _, f := range h.Files {
		c := change{Old: f.Old, New: f.New, OldMode: f.OldMode, NewMode: f.NewMode, Paths: f.Paths()}
		if f.CreatesLink() {
			c.Link = f.LinkTarget()
		}
		out = append(out, c)
	}
	return out
}

func TestParsePatch(t *testing.T) {
	tests := []struct {
		name  string
		patch string
		want  []change
		stray []string // raw names
	}{
		{
			name: "git modification",
			patch: "diff --git a/src/w.go b/src/w.go\nindex 1111111..2222222 100644\n--- a/src/w.go\n+++ b/src/w.go\n" +
				"@@ -1,2 +1,2 @@\n package w\n-var x = 1\n+var x = 2\n",
			want: []change{{Old: "src/w.go", New: "src/w.go", OldMode: "100644", NewMode: "100644", Paths: []string{"src/w.go"}}},
		},
		{
			name:  "plain unified with timestamps",
			patch: "--- a/x.c\t2024-01-01 00:00:00.000000000 +0000\n+++ b/x.c\t2024-01-02 00:00:00.000000000 +0000\n@@ -1 +1 @@\n-a\n+b\n",
			want:  []change{{Old: "x.c", New: "x.c", Paths: []string{"x.c"}}},
		},
		{
			name:  "new file from /dev/null",
			patch: "diff --git a/n.txt b/n.txt\nnew file mode 100644\nindex 0000000..3b18e51\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+hello\n",
			want:  []change{{New: "n.txt", NewMode: "100644", Paths: []string{"n.txt"}}},
		},
		{
			name:  "deleted file",
			patch: "diff --git a/d.txt b/d.txt\ndeleted file mode 100644\nindex 3b18e51..0000000\n--- a/d.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-hello\n",
			want:  []change{{Old: "d.txt", OldMode: "100644", Paths: []string{"d.txt"}}},
		},
		{
			name:  "rename without content",
			patch: "diff --git a/old name.txt b/new name.txt\nsimilarity index 100%\nrename from old name.txt\nrename to new name.txt\n",
			want:  []change{{Old: "old name.txt", New: "new name.txt", Paths: []string{"old name.txt", "new name.txt"}}},
			// The diff --git line splits no way into agreeing names: every
			// split is judged.
			stray: []string{"a/old", "name.txt b/new name.txt", "a/old name.txt", "b/new name.txt", "a/old name.txt b/new", "name.txt", "a/old name.txt b/new name.txt"},
		},
		{
			name:  "copy",
			patch: "diff --git a/a.txt b/b.txt\nsimilarity index 100%\ncopy from a.txt\ncopy to b.txt\n",
			want:  []change{{Old: "a.txt", New: "b.txt", Paths: []string{"a.txt", "b.txt"}}},
			stray: []string{"a/a.txt", "b/b.txt", "a/a.txt b/b.txt"},
		},
		{
			name:  "mode change",
			patch: "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n",
			want:  []change{{Old: "run.sh", New: "run.sh", OldMode: "100644", NewMode: "100755", Paths: []string{"run.sh"}}},
		},
		{
			name: "quoted names with escapes",
			patch: "diff --git \"a/t\\303\\251st\\tx.txt\" \"b/t\\303\\251st\\tx.txt\"\nindex 1..2 100644\n" +
				"--- \"a/t\\303\\251st\\tx.txt\"\n+++ \"b/t\\303\\251st\\tx.txt\"\n@@ -1 +1 @@\n-a\n+b\n",
			want: []change{{Old: "tést\tx.txt", New: "tést\tx.txt", OldMode: "100644", NewMode: "100644", Paths: []string{"tést\tx.txt"}}},
		},
		{
			name:  "quoted rename lines",
			patch: "diff --git \"a/q\\\"1\" \"b/q\\\\2\"\nsimilarity index 100%\nrename from \"q\\\"1\"\nrename to \"q\\\\2\"\n",
			want:  []change{{Old: "q\"1", New: `q\2`, Paths: []string{"q\"1", `q\2`}}},
		},
		{
			name:  "names with spaces agree",
			patch: "diff --git a/my dir/f b.txt b/my dir/f b.txt\nold mode 100644\nnew mode 100755\n",
			want:  []change{{Old: "my dir/f b.txt", New: "my dir/f b.txt", OldMode: "100644", NewMode: "100755", Paths: []string{"my dir/f b.txt"}}},
		},
		{
			name: "symlink created, no final newline",
			patch: "diff --git a/lib/l b/lib/l\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/lib/l\n" +
				"@@ -0,0 +1 @@\n+../x\n\\ No newline at end of file\n",
			want: []change{{New: "lib/l", NewMode: "120000", Paths: []string{"lib/l"}, Link: "../x"}},
		},
		{
			name: "symlink retargeted",
			patch: "diff --git a/l b/l\nindex 1111111..2222222 120000\n--- a/l\n+++ b/l\n@@ -1 +1 @@\n-old\n\\ No newline at end of file\n" +
				"+/etc/passwd\n\\ No newline at end of file\n",
			want: []change{{Old: "l", New: "l", OldMode: "120000", NewMode: "120000", Paths: []string{"l"}, Link: "/etc/passwd"}},
		},
		{
			name: "hunk lines that look like headers are skipped by count",
			patch: "--- a/q.sql\n+++ b/q.sql\n@@ -1 +1 @@\n--- a/../evil\n+++ b/../evil\n" +
				"--- b.txt\n+++ b.txt\n@@ -1 +1 @@\n-x\n+y\n",
			want:  []change{{Old: "q.sql", New: "q.sql", Paths: []string{"q.sql"}}, {Old: "b.txt", New: "b.txt", Paths: []string{"b.txt"}}},
			stray: []string{"a/../evil", "b/../evil"},
		},
		{
			name:  "indented header and Index line are judged",
			patch: "Index: src/../../x\n  *** ctx/../y\nnothing here\n",
			stray: []string{"src/../../x", "ctx/../y"},
		},
		{
			name:  "two files, CRLF",
			patch: "--- a/one\r\n+++ b/one\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n--- a/two\r\n+++ b/two\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n",
			want:  []change{{Old: "one", New: "one", Paths: []string{"one"}}, {Old: "two", New: "two", Paths: []string{"two"}}},
		},
		{
			name:  "garbage",
			patch: "this is not a patch\nat all\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := parsePatch([]byte(tt.patch))
			if err != nil {
				t.Fatal(err)
			}
			if got := summarize(h); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("files:\n got %+v\nwant %+v", got, tt.want)
			}
			var stray []string
			for _, n := range h.Stray {
				stray = append(stray, n.Raw)
			}
			if !reflect.DeepEqual(stray, tt.stray) {
				t.Errorf("stray = %q, want %q", stray, tt.stray)
			}
		})
	}
}

func TestParsePatchRefusesBadQuoting(t *testing.T) {
	for _, patch := range []string{
		"diff --git \"a/x b/x\n",
		"--- \"a/x\\q\"\n+++ b/x\n",
		"diff --git a/x b/y\nrename from \"x\" trailing\n",
		"diff --git a/x b/y\nrename to \"x\\\n",
		"diff --git a/x" + strings.Repeat(" ", 300) + "b/y\n",
	} {
		if _, err := parsePatch([]byte(patch)); err == nil {
			t.Errorf("%q: no error", patch)
		}
	}
}

func TestParseGitDiffLineAmbiguousNames(t *testing.T) {
	// No split gives equal names: every candidate is returned for judging.
	names, ambiguous, err := parseGitDiffLine("a/x b/../y b/z")
	if err != nil || !ambiguous {
		t.Fatalf("ambiguous = %v, err = %v", ambiguous, err)
	}
	var raws []string
	for _, n := range names {
		raws = append(raws, n.Raw)
	}
	if got := strings.Join(raws, "|"); !strings.Contains(got, "b/../y b/z") || !strings.Contains(got, "a/x b/../y") {
		t.Errorf("candidates = %q", got)
	}
}
