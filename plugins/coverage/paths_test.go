package coverage

import (
	"path"
	"strings"
	"testing"
)

func TestRepoRelative(t *testing.T) {
	tests := []struct {
		name    string
		root, p string
		want    string
		wantOK  bool
	}{
		{"unix file", "/tmp/w/repo", "/tmp/w/repo/pkg/a.go", "pkg/a.go", true},
		{"unix root with trailing slash", "/tmp/w/repo/", "/tmp/w/repo/a.go", "a.go", true},
		{"unix sibling sharing a prefix", "/tmp/w/repo", "/tmp/w/repo2/a.go", "", false},
		{"unix outside", "/tmp/w/repo", "/usr/lib/go/src/fmt/print.go", "", false},
		{"dot-dot climbing out", "/tmp/w/repo", "/tmp/w/repo/../other/a.go", "", false},
		{"dot-dot staying in", "/tmp/w/repo", "/tmp/w/repo/x/../a.go", "a.go", true},
		{"doubled slashes", "/tmp/w/repo", "//tmp/w//repo/a.go", "a.go", true},
		{"the root itself", "/tmp/w/repo", "/tmp/w/repo/", "", false},
		{"filesystem root", "/", "/a.go", "a.go", true},
		{"windows file", `C:\w\repo`, `C:\w\repo\pkg\a.go`, "pkg/a.go", true},
		{"windows drive letter case", `c:\w\repo`, `C:\w\repo\a.go`, "a.go", true},
		{"windows forward slashes", `C:/w/repo`, `c:\w\repo\a.go`, "a.go", true},
		{"windows other drive", `C:\w\repo`, `D:\w\repo\a.go`, "", false},
		{"windows directory case differs", `C:\w\repo`, `C:\W\Repo\a.go`, "", false},
		{"windows drive root", `C:\`, `C:\a.go`, "a.go", true},
		{"windows dot-dot stops at the drive", `C:\w\repo`, `C:\..\w\repo\a.go`, "a.go", true},
		{"extended-length path", `C:\w\repo`, `\\?\C:\w\repo\a.go`, "a.go", true},
		{"extended-length root", `\\?\C:\w\repo`, `C:\w\repo\sub\a.go`, "sub/a.go", true},
		{"device namespace", `C:\w\repo`, `\\.\C:\w\repo\a.go`, "a.go", true},
		{"device that is no drive", `C:\w\repo`, `\\.\pipe\a.go`, "", false},
		{"wine Z: path, unix root", "/tmp/w/repo", `Z:\tmp\w\repo\a.go`, "a.go", true},
		{"wine Z: root, unix path", `Z:\tmp\w\repo`, "/tmp/w/repo/a.go", "a.go", true},
		{"wine lower-case z:", `z:\tmp\w\repo`, `Z:/tmp/w/repo/sub/b.go`, "sub/b.go", true},
		{"wine C: is not the unix root", "/tmp/w/repo", `C:\tmp\w\repo\a.go`, "", false},
		{"UNC share", `\\server\share\repo`, `\\server\share\repo\a.go`, "a.go", true},
		{"UNC long form", `\\server\share\repo`, `\\?\UNC\server\share\repo\a.go`, "a.go", true},
		{"UNC is not a unix path", `\\server\share\repo`, "/server/share/repo/a.go", "", false},
		{"UNC is not under the unix root", "/", `\\server\share\a.go`, "", false},
		{"device path is not under the unix root", "/", `\\.\pipe\a`, "", false},
		{"device path under itself", `\\.\pipe`, `\\.\pipe\a`, "a", true},
		{"work token", "$WORK", "$WORK/pkg/a.go", "pkg/a.go", true},
		{"work token with backslashes", "$WORK", `$WORK\pkg\a.go`, "pkg/a.go", true},
		{"work token against an absolute path", "$WORK", "/tmp/a.go", "", false},
		{"relative path is under the root", "/tmp/w/repo", "pkg/a.go", "pkg/a.go", true},
		{"relative path is cleaned", `C:\w\repo`, `.\pkg\.\a.go`, "pkg/a.go", true},
		{"relative path climbing out", "/tmp/w/repo", "../a.go", "", false},
		{"relative dot", "/tmp/w/repo", ".", "", false},
		{"empty path", "/tmp/w/repo", "", "", false},
		{"absolute path without a root", "", "/tmp/w/repo/a.go", "", false},
		{"relative path without a root", "", "a.go", "a.go", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := RepoRelative(tc.root, tc.p)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("RepoRelative(%q, %q) = %q, %v; want %q, %v", tc.root, tc.p, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func FuzzRepoRelative(f *testing.F) {
	seeds := [][2]string{
		{"/tmp/w/repo", "/tmp/w/repo/a.go"},
		{`C:\w\repo`, `\\?\c:\w\repo\..\repo\a.go`},
		{`Z:\tmp\w`, "/tmp/w/x/../../y"},
		{`\\server\share`, `\\?\UNC\server\share\a`},
		{"$WORK", `$WORK\..\a`},
		{"", "../x"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, root, p string) {
		rel, ok := RepoRelative(root, p)
		if !ok {
			if rel != "" {
				t.Errorf("RepoRelative(%q, %q) = %q with ok=false", root, p, rel)
			}
			return
		}
		switch {
		case rel == "" || rel == ".":
			t.Errorf("RepoRelative(%q, %q) = %q: not a path under the root", root, p, rel)
		case strings.HasPrefix(rel, "/") || strings.Contains(rel, `\`):
			t.Errorf("RepoRelative(%q, %q) = %q: not a relative \"/\" path", root, p, rel)
		case path.Clean(rel) != rel || escapes(rel):
			t.Errorf("RepoRelative(%q, %q) = %q: not clean, or climbing out", root, p, rel)
		}
	})
}
