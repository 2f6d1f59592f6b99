package initmanifest

import (
	"regexp"
	"strings"
)

// A Debian source package is often named after its library's soname or
// API version (libuv1, libpng1.6, libevent-2.1), not after the project;
// the repository and its tasks should carry the project's name (issue 22:
// "libuv", not "libuv1"). The project names itself in its build files:
// CMake's project(NAME …) or autoconf's AC_INIT([NAME], …). That name is
// taken only when the package's name is it plus a version suffix, so a
// package whose project is called otherwise (googletest's CMake project is
// "googletest-distribution") keeps its own name, and so does a library
// whose digits are part of its name (libxml2's project is libxml2).

var (
	cmakeProject = regexp.MustCompile(`(?im)^\s*project\s*\(\s*"?([A-Za-z0-9_.+-]+)`)
	acInit       = regexp.MustCompile(`(?m)^\s*AC_INIT\(\s*\[?([A-Za-z0-9_.+ -]+?)\]?\s*,`)
	// versionSuffix is what follows a project's name in a package's:
	// "1", "1.6", "-2.1", "2.4".
	versionSuffix = regexp.MustCompile(`^[-.]?[0-9][0-9.]*$`)
)

// upstreamName is the repository name for a Debian package from the
// project's own name in its top build files (read reads a file of the
// tree; nil content when there is none); pkg when they give none that
// pkg extends by a version.
func upstreamName(pkg string, read func(string) []byte) string {
	for _, f := range []struct {
		file string
		re   *regexp.Regexp
	}{{"CMakeLists.txt", cmakeProject}, {"configure.ac", acInit}} {
		m := f.re.FindSubmatch(read(f.file))
		if m == nil {
			continue
		}
		project := sanitize(strings.TrimSpace(string(m[1])))
		if rest, ok := strings.CutPrefix(pkg, project); ok && versionSuffix.MatchString(rest) {
			return project
		}
	}
	return pkg
}
