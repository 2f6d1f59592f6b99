package patchapply

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/osbench/osbench/plugins/lang"
)

// Test code inside source files (a Rust #[cfg(test)] module in src/lib.rs)
// belongs to the task as test files do: the evaluation puts it back before
// anything runs, item by item, with the rules of the file's language
// (lang.TestCode). Without this, a patch could empty the unit tests that
// judge it and pass them.

// maxModuleScan bounds the task's source files read to find test-only
// module files, and their size: a task repository is a library, not a
// monorepo. (The task's files only: a patched file is always read.)
const (
	maxModuleScan     = 20000
	maxModuleFileSize = 4 << 20
)

// testModuleFiles returns the files of the task's repository (pristine)
// that its sources declare as test-only modules (Rust's `#[cfg(test)] mod
// helpers;`): test code whole, restored like test files.
func testModuleFiles(pristine string) (map[string]bool, error) {
	modules := map[string]bool{}
	seen := 0
	err := filepath.WalkDir(pristine, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(pristine, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		l, ok := lang.Lookup(lang.Of(rel))
		if !ok || l.TestCode.Modules == nil || lang.IsTestFile(rel) {
			return nil
		}
		if seen++; seen > maxModuleScan {
			return filepath.SkipAll
		}
		info, err := d.Info()
		if err != nil || info.Size() > maxModuleFileSize {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range l.TestCode.Modules(rel, src) {
			modules[m] = true
		}
		return nil
	})
	return modules, err
}

// restoreTestCode puts the test items of every source file among paths
// that the patch changed back to the task's version. It returns what it
// put back ("src/lib.rs: mod tests"), sorted, or a reason to refuse the
// patch when a file's test code cannot be put back.
func restoreTestCode(repo, pristine string, paths []string, isTest func(string) bool) ([]string, string, error) {
	var restored []string
	for _, p := range paths {
		if isTest(p) {
			continue // restored whole
		}
		l, ok := lang.Lookup(lang.Of(p))
		if !ok || l.TestCode.Restore == nil {
			continue
		}
		task, ok, err := regularFile(filepath.Join(pristine, filepath.FromSlash(p)))
		if err != nil {
			return nil, "", err
		}
		if !ok {
			continue // a file the patch adds: no test of the task lives there
		}
		dst := filepath.Join(repo, filepath.FromSlash(p))
		patched, ok, err := regularFile(dst)
		if err != nil {
			return nil, "", err
		}
		if !ok {
			continue // deleted (or made a link, which checkLinks judged): its tests go with it
		}
		out, items, problem := l.TestCode.Restore(task, patched)
		if problem != "" {
			return nil, fmt.Sprintf("the test code of %s cannot be restored: %s", p, problem), nil
		}
		if len(items) == 0 {
			continue
		}
		info, err := os.Lstat(dst)
		if err != nil {
			return nil, "", err
		}
		if err := os.WriteFile(dst, out, info.Mode().Perm()); err != nil {
			return nil, "", err
		}
		for _, it := range items {
			restored = append(restored, p+": "+it)
		}
	}
	sort.Strings(restored)
	return restored, "", nil
}

// regularFile reads the regular file at p; ok is false when there is
// none (absent, a link, a directory).
func regularFile(p string) (content []byte, ok bool, err error) {
	info, err := os.Lstat(p)
	if os.IsNotExist(err) {
		return nil, false, nil
	}
	// No size cap: a patch that pads a source file must not slip its test
	// code past the restore (the patch's own size bounds what it adds).
	if err != nil || !info.Mode().IsRegular() {
		return nil, false, err
	}
	b, err := os.ReadFile(p)
	return b, err == nil, err
}
