package testrun

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all" // the languages whose test sources it hashes
)

// The test sources of the task (a Go _test.go file, a Rust file under
// tests/) are compiled by the runner while earlier test programs may
// already run: go test builds one package's binary while another's runs.
// A test program that rewrites the test files of a package not yet built
// would be judged on tests of its own making. The apply step restores the
// test files before the run; the test step checks they are still the
// task's after it, and names every test source the run changed, added or
// removed (TestResults.ChangedTestFiles); the verdict does not grade such
// a run. Only files a language names as tests count (isTestSource):
// suites write data files under testdata/ and builds generate sources,
// but neither writes a _test.go.

// isTestSource reports whether a repository path is a test source by its
// own name (x_test.go, x_test.c), not merely a file under a test
// directory: a build writes generated sources under build/tests/ and
// the like, while the runner that compiles tests between test programs
// (go test) compiles exactly the files so named.
func isTestSource(rel string) bool {
	l, ok := lang.Lookup(lang.Of(rel))
	return ok && l.IsTestName(path.Base(rel))
}

// maxTestSources bounds the files hashed: beyond it the check is off for
// the run (a repository of that size is not a task).
const maxTestSources = 50000

// testSources hashes every test source file of the repository.
func testSources(repo string) (map[string]string, error) {
	sums := map[string]string{}
	err := walkRepo(repo, func(p, rel string, d fs.DirEntry) error {
		if !isTestSource(rel) {
			return nil
		}
		if len(sums) >= maxTestSources {
			return filepath.SkipAll
		}
		sums[rel] = fileSum(p, d)
		return nil
	})
	return sums, err
}

// walkRepo calls visit for every file of the repository but its .git,
// with its path relative to repo ("/"-separated). A directory the suite
// closed to osbench is skipped: nothing of the task's lives there.
func walkRepo(repo string, visit func(p, rel string, d fs.DirEntry) error) error {
	return filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != repo && os.IsPermission(err) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(repo, p)
		if err != nil {
			return err
		}
		return visit(p, filepath.ToSlash(rel), d)
	})
}

// fileSum is the hex SHA-256 of a regular file, or a marker for what else
// sits at the path (a link, a FIFO the suite made), so a replaced file
// always differs.
func fileSum(p string, d fs.DirEntry) string {
	if !d.Type().IsRegular() {
		return "not a regular file: " + d.Type().String()
	}
	f, err := os.Open(p)
	if err != nil {
		return "unreadable"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unreadable"
	}
	return hex.EncodeToString(h.Sum(nil))
}

// changedTestSources lists, sorted, the test sources that differ between
// two snapshots: changed, added or removed.
func changedTestSources(before, after map[string]string) []string {
	var changed []string
	for p, sum := range after {
		if before[p] != sum {
			changed = append(changed, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			changed = append(changed, p)
		}
	}
	sort.Strings(changed)
	return changed
}

// Checking after the run catches a test source that stays changed; it
// cannot catch one rewritten and put back while the run lasts (by a test
// program, between the go command's compiles of two packages), nor test
// code rewritten before it is compiled by what the build runs of the
// patch's (a Rust build script of a crate that has one, a CMake
// execute_process), which the hash of the named test sources never
// covered (tests/it.rs, tests/test_alloc.c). So every command of the run
// — build, compile, tests, listings — gets the task's test code read-only
// (executors.Cmd.ReadOnlyFiles): each file the apply step restores as a
// test file that is some language's source, and the source files that can
// hold test code (isTestCode). Test data (testdata/*.txt, a golden file)
// stays writable, since suites write there.

// maxReadOnlyTestFiles bounds the files bound read-only per command: a
// mount each. Beyond it none is (the run says so in its log) and the
// hash check is what is left.
const maxReadOnlyTestFiles = 4096

// readOnlyTestFiles lists the absolute paths of the task's test code in
// repo (see above), sorted; over maxReadOnlyTestFiles, none and false.
func readOnlyTestFiles(repo string) ([]string, bool, error) {
	var files []string
	over := false
	err := walkRepo(repo, func(p, rel string, d fs.DirEntry) error {
		if !d.Type().IsRegular() {
			return nil // a link is judged by the apply step, and a bind would follow it
		}
		if !isTestCode(rel) {
			return nil
		}
		if len(files) == maxReadOnlyTestFiles {
			over = true
			return filepath.SkipAll
		}
		files = append(files, p)
		return nil
	})
	if err != nil || over {
		return nil, !over, err
	}
	sort.Strings(files)
	return files, true, nil
}

// isTestCode reports whether a repository path is test code of the task:
// a test file (lang.IsTestFile, by its directory or its name) written in
// a language osbench knows (lang.Of), not test data; or any source file of
// a language whose tests may live inside source files (lang.TestCode: a
// Rust #[cfg(test)] module, a doctest), which the apply step put back and
// a build script could otherwise rewrite before rustc reads it. Cargo
// refuses to publish a crate whose build writes outside its OUT_DIR, so a
// crate's own build never needs its sources writable.
func isTestCode(rel string) bool {
	name := lang.Of(rel)
	if name == "" {
		return false
	}
	if lang.IsTestFile(rel) {
		return true
	}
	l, ok := lang.Lookup(name)
	return ok && l.TestCode.Restore != nil
}
