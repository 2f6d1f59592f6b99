package coverage

import (
	"path"
	"strings"
)

// workToken is the placeholder osbench writes for the work directory. As a
// Root or at the start of a path it is a volume root of its own, like "c:".
const workToken = "$WORK"

// RepoRelative turns a path reported by a tool into a repo-relative,
// "/"-separated path: strip Root (any OS spelling: "\" → "/", drive letter
// compared case-insensitively, `\\?\` dropped, Wine's Z: mapping of a Unix
// root), clean it; ok=false when it lies outside the root.
//
// A relative p is taken as relative to root, the directory the tool ran in,
// and is outside it only when it climbs out with "..". The root itself is
// not a path under it (ok=false): a file is never the repository.
func RepoRelative(root, p string) (rel string, ok bool) {
	if p == "" {
		return "", false
	}
	q, rooted := canonicalPath(p)
	if !rooted {
		if q == "." || q == ".." || strings.HasPrefix(q, "../") {
			return "", false
		}
		return q, true
	}
	r, rootRooted := canonicalPath(root)
	if !rootRooted {
		// Without an absolute root there is nothing to strip.
		return "", false
	}
	prefix := r
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	rel, ok = strings.CutPrefix(q, prefix)
	if !ok || rel == "" {
		return "", false
	}
	return rel, true
}

// canonicalPath rewrites p into the one spelling paths are compared in, and
// reports whether p is rooted (absolute on some OS):
//
//	`C:\w\repo\a.go`, `\\?\C:\w\repo\a.go`  →  c:/w/repo/a.go
//	`Z:\tmp\w\a.go` (Wine's view of /)     →  /tmp/w/a.go
//	`\\server\share\a.go`                  →  \\server/share/a.go
//	$WORK\a.go                             →  $WORK/a.go
//	/tmp/w/../w/a.go                       →  /tmp/w/a.go
//
// Rooted paths are cleaned as the OS would resolve them: ".." stops at the
// volume root. UNC shares and device paths keep a leading `\\` (the only
// backslashes left), so they never fall under a Unix root such as "/".
func canonicalPath(p string) (string, bool) {
	windowsUNC := strings.HasPrefix(p, `\\`)
	p = strings.ReplaceAll(p, `\`, "/")
	// Win32 and NT namespace prefixes: \\?\C:\x, \\.\C:\x, \??\C:\x and
	// \\?\UNC\server\share\x.
	for _, namespace := range []string{"//?/", "//./", "/??/"} {
		rest, ok := strings.CutPrefix(p, namespace)
		if !ok {
			continue
		}
		if len(rest) >= 4 && strings.EqualFold(rest[:4], "UNC/") {
			return uncPath(rest[4:]), true
		}
		if !hasDrive(rest) {
			// A device or volume GUID path: only ever under itself.
			return strings.ReplaceAll(namespace, "/", `\`) + cleanRooted(rest)[1:], true
		}
		p, windowsUNC = rest, false
		break
	}
	switch {
	case hasDrive(p):
		drive := p[0] | 0x20 // ASCII lower case
		rest := cleanRooted(p[2:])
		if drive == 'z' {
			return rest, true
		}
		return string(drive) + ":" + rest, true
	case windowsUNC:
		return uncPath(p[2:]), true
	case p == workToken || strings.HasPrefix(p, workToken+"/"):
		return workToken + cleanRooted(p[len(workToken):]), true
	case strings.HasPrefix(p, "/"):
		return path.Clean(p), true
	}
	return path.Clean(p), false
}

// uncPath spells the UNC path \\server\share\p given "server/share/p".
func uncPath(p string) string { return `\\` + cleanRooted(p)[1:] }

// cleanRooted cleans p as a path below a volume root, so ".." cannot climb
// above it. The result starts with "/".
func cleanRooted(p string) string { return path.Clean("/" + p) }

// hasDrive reports whether p starts with a drive letter and colon.
func hasDrive(p string) bool {
	if len(p) < 2 || p[1] != ':' {
		return false
	}
	c := p[0] | 0x20
	return c >= 'a' && c <= 'z'
}
