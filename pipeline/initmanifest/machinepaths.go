package initmanifest

import (
	"regexp"
	"strings"
)

// A test's output names this machine's paths: the run's work directory
// (under the cache, named anew for every run and removed after it: HOME,
// TMPDIR and the repository are in it) and the cache itself (module and
// build caches). A reason init writes into a manifest comment must carry
// neither (issue 22: `# panicked: mkdir Z:\…\cache\work\…-911813728\…`):
// the manifest is shared, and would change with every run. The log is
// rewritten before the reasons are read from it: a work directory becomes
// $WORK, the rest of the cache $CACHE.

// machinePaths rewrites the paths under cacheDir in a step's log, as
// Linux spells them and as Wine does (drive Z:, either separator, either
// case of the letter), also inside JSON strings (test2json's events, where
// a backslash is doubled).
func machinePaths(log []byte, cacheDir string) []byte {
	if cacheDir == "" || len(log) == 0 {
		return log
	}
	work, cache := pathForms(strings.TrimRight(cacheDir, "/")+"/work"), pathForms(strings.TrimRight(cacheDir, "/"))
	// A work directory is the work root and the run's own directory below
	// it; the separator after the root takes any form the root had.
	log = work.ReplaceAll(log, []byte("$$WORK"))
	return cache.ReplaceAll(log, []byte("$$CACHE"))
}

// pathForms is a regexp for every spelling of an absolute host path dir:
// as it is, and after Z: with '/', '\' or a JSON-escaped '\\' between its
// elements. For the work root it takes the next element too (the run's
// directory).
func pathForms(dir string) *regexp.Regexp {
	elems := strings.Split(strings.TrimPrefix(dir, "/"), "/")
	quoted := make([]string, len(elems))
	for i, e := range elems {
		quoted[i] = regexp.QuoteMeta(e)
	}
	sep := `(?:/|\\\\|\\)`
	body := strings.Join(quoted, sep)
	pattern := `(?:[Zz]:)?` + sep + body
	if strings.HasSuffix(dir, "/work") {
		pattern += sep + `[^/\\\s"'<>:]+`
	}
	// Not the start of a longer name: /cache/work2 is not /cache/work.
	return regexp.MustCompile(pattern + `(?:\b|$)`)
}
