package coverage

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

// The C/C++ recordings: testdata/cstub built and tested with each
// toolchain installed, its coverage reported by each tool. Recorded with
// Debian 12's gcc 12.2 (gcov, lcov 1.16, gcovr 5.2), clang/llvm 14, and
// mingw-w64 gcc 12 with the test run under Wine 8. The build directory is
// written as cstubRoot in every recording, so that the recordings and their
// golden outputs do not depend on where -update ran.
const cstubRoot = "/tmp/w/cstub"

// cstubInputs are the recordings, each with the importer that reads it.
var cstubInputs = []struct {
	file     string
	importer Importer
}{
	{"cstub-gcc.gcov", &Gcov{}},
	{"cstub-gcc.gcov.json.gz", &Gcov{}},
	{"cstub-gcc.lcov", &Lcov{}},
	{"cstub-gcovr.cobertura.xml", &Cobertura{}},
	{"cstub-clang.llvm.json", &LLVMJSON{}},
	{"cstub-clang.lcov", &Lcov{}},
	{"cstub-mingw.gcov", &Gcov{}},
}

func TestCStubGolden(t *testing.T) {
	if *update {
		recordCStub(t)
	}
	for _, in := range cstubInputs {
		t.Run(in.file, func(t *testing.T) {
			got := importFile(t, in.importer, in.file, Options{Root: cstubRoot})
			checkCoverage(t, got)
			checkCoverageGolden(t, got, in.file+".golden.json")
			checkCStubFacts(t, got, strings.Contains(in.file, "mingw"))
		})
	}
}

// checkCStubFacts pins what the stub was written to show, whatever the
// tool, so that a wrong golden file cannot be accepted by accident. On
// Windows the _WIN32 branch is compiled and runs instead of the other.
func checkCStubFacts(t *testing.T, got []schemas.FileCoverage, windows bool) {
	t.Helper()
	byPath := map[string]schemas.FileCoverage{}
	for _, fc := range got {
		byPath[fc.Path] = fc
	}
	for _, p := range []string{"calc/calc.c", "calc/guard.cc", "calc_test.c"} {
		if _, ok := byPath[p]; !ok {
			t.Errorf("no coverage for %s; got %v", p, slices.Collect(maps.Keys(byPath)))
		}
	}
	calc := byPath["calc/calc.c"]
	ran := func(line int) bool { return slices.Contains(calc.Executed, line) }
	instrumented := func(line int) bool { return slices.Contains(calc.Instrumented, line) }
	thisOS, otherOS := 23, 21 // path_separator's #else and #ifdef _WIN32 branches
	if windows {
		thisOS, otherOS = otherOS, thisOS
	}
	for _, line := range []int{6, 11, 16, thisOS} { // add, classify's two returns
		if !ran(line) {
			t.Errorf("calc/calc.c:%d did not run; executed = %v", line, calc.Executed)
		}
	}
	for _, line := range []int{14, 28, 30, 32} { // classify's "return 0", unused()
		if ran(line) || !instrumented(line) {
			t.Errorf("calc/calc.c:%d should be instrumented and not executed", line)
		}
	}
	if instrumented(otherOS) {
		t.Errorf("calc/calc.c:%d, compiled for the other OS only, is instrumented", otherOS)
	}
	guard := byPath["calc/guard.cc"]
	if slices.Contains(guard.Executed, 9) { // the throw
		t.Errorf("calc/guard.cc:9 (a throw that never happens) ran")
	}
}

// llvm-cov derives line coverage from the segments of its JSON export;
// its lcov export of the same run is that derivation, done by llvm-cov.
func TestLLVMJSONAgreesWithLLVMCovLcov(t *testing.T) {
	fromJSON := importFile(t, &LLVMJSON{}, "cstub-clang.llvm.json", Options{Root: cstubRoot})
	fromLcov := importFile(t, &Lcov{}, "cstub-clang.lcov", Options{Root: cstubRoot})
	if !reflect.DeepEqual(fromJSON, fromLcov) {
		t.Errorf("llvm-json and llvm-cov's lcov differ:\njson: %v\nlcov: %v", fromJSON, fromLcov)
	}
}

// gcov's two formats of one run say the same.
func TestGcovTextAgreesWithJSON(t *testing.T) {
	fromText := importFile(t, &Gcov{}, "cstub-gcc.gcov", Options{Root: cstubRoot})
	fromJSON := importFile(t, &Gcov{}, "cstub-gcc.gcov.json.gz", Options{Root: cstubRoot})
	if !reflect.DeepEqual(fromText, fromJSON) {
		t.Errorf("gcov text and JSON differ:\ntext: %v\njson: %v", fromText, fromJSON)
	}
}

// A report written on Windows (native, or under Wine, which shows the Unix
// root as Z:) or with osbench's $WORK token gives the same coverage as the
// same report written on Linux. Each recording is respelled: the stub's
// root and the paths under it, with the importer's Root to match.
func TestCStubSameOnEveryOS(t *testing.T) {
	spellings := []struct {
		name, root, prefix string
		backslashes        bool
	}{
		{"windows", `C:\w\cstub`, `C:\w\cstub`, true},
		{"windows lower-case drive and forward slashes", `C:\w\cstub`, `c:/w/cstub`, false},
		{"windows extended-length", `C:\w\cstub`, `\\?\C:\w\cstub`, true},
		{"wine", cstubRoot, `Z:\tmp\w\cstub`, true},
		{"work token", "$WORK", "$WORK", false},
	}
	for _, in := range cstubInputs {
		linux := importFile(t, in.importer, in.file, Options{Root: cstubRoot})
		raw := readTestdata(t, in.file)
		for _, sp := range spellings {
			t.Run(in.file+"/"+sp.name, func(t *testing.T) {
				respelled := respell(t, raw, strings.HasSuffix(in.file, ".json") || strings.HasSuffix(in.file, ".json.gz"),
					strings.HasSuffix(in.file, ".gz"), sp.prefix, sp.backslashes)
				got, err := in.importer.Import(bytes.NewReader(respelled), Options{Root: sp.root})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, linux) {
					t.Errorf("respelled as %s:\n%v\nwant (Linux):\n%v", sp.name, got, linux)
				}
			})
		}
	}
}

// stubPath matches cstubRoot and the path after it.
var stubPath = regexp.MustCompile(regexp.QuoteMeta(cstubRoot) + `(/[A-Za-z0-9_.\-/]*)?`)

// respell rewrites every path under cstubRoot in a report as prefix plus
// the rest of the path, with "\" separators if asked (escaped in JSON), and
// recompresses it if it was gzip.
func respell(t *testing.T, data []byte, isJSON, isGzip bool, prefix string, backslashes bool) []byte {
	t.Helper()
	if isGzip {
		data = gunzip(t, data)
	}
	if !stubPath.Match(data) {
		t.Skipf("the report names no absolute path (gcovr 5 writes its sources as \".\"): nothing to respell")
	}
	out := stubPath.ReplaceAllFunc(data, func(m []byte) []byte {
		p := prefix + string(m[len(cstubRoot):])
		if backslashes {
			p = strings.ReplaceAll(p, "/", `\`)
		}
		if isJSON {
			p = strings.ReplaceAll(p, `\`, `\\`)
		}
		return []byte(p)
	})
	if isGzip {
		out = gzipBytes(t, out)
	}
	return out
}

// recordCStub builds and tests the stub with every toolchain installed and
// records each coverage report. A toolchain that is missing keeps its
// recordings.
func recordCStub(t *testing.T) {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("testdata", "cstub"))
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(t.TempDir(), "cstub")
	copyDir(t, src, work)
	sources := map[string]string{"calc": "calc/calc.c", "calc_test": "calc_test.c", "guard": "calc/guard.cc"}
	store := func(file string, data []byte) {
		data = bytes.ReplaceAll(data, []byte(work), []byte(cstubRoot))
		if err := os.WriteFile(filepath.Join("testdata", file), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// gcc: gcov's text and JSON, lcov, gcovr.
	if have(t, "gcc", "g++", "gcov") {
		build := buildStub(t, work, "build-gcc", "gcc", "g++", []string{"--coverage", "-O0"}, []string{"--coverage"}, sources)
		run(t, build, nil, filepath.Join(build, "calc_test"))
		run(t, build, nil, "gcov", "-a", "-b", "calc.gcda", "calc_test.gcda", "guard.gcda")
		store("cstub-gcc.gcov", concatFiles(t, build, "*.gcov"))
		run(t, build, nil, "gcov", "--json-format", "calc.gcda", "calc_test.gcda", "guard.gcda")
		var members bytes.Buffer
		for _, gz := range globSorted(t, build, "*.gcov.json.gz") {
			plain := gunzip(t, readFile(t, gz))
			members.Write(gzipBytes(t, bytes.ReplaceAll(plain, []byte(work), []byte(cstubRoot))))
		}
		store("cstub-gcc.gcov.json.gz", members.Bytes())
		if have(t, "lcov") {
			info := filepath.Join(t.TempDir(), "cstub.info")
			run(t, t.TempDir(), nil, "lcov", "--quiet", "--capture", "--directory", build, "--output-file", info)
			store("cstub-gcc.lcov", readFile(t, info))
		}
		if have(t, "gcovr") {
			xml := filepath.Join(t.TempDir(), "cobertura.xml")
			run(t, work, nil, "gcovr", "--root", work, "--xml-pretty", "--output", xml, build)
			store("cstub-gcovr.cobertura.xml", readFile(t, xml))
		}
	}

	// clang: llvm-cov's JSON export, and its lcov export to check against.
	clang, clangxx := firstTool("clang-14", "clang"), firstTool("clang++-14", "clang++")
	profdata, llvmCov := firstTool("llvm-profdata-14", "llvm-profdata"), firstTool("llvm-cov-14", "llvm-cov")
	if have(t, clang, clangxx, profdata, llvmCov) {
		flags := []string{"-fprofile-instr-generate", "-fcoverage-mapping", "-O0"}
		build := buildStub(t, work, "build-clang", clang, clangxx, flags, flags[:1], sources)
		raw := filepath.Join(build, "calc_test.profraw")
		run(t, build, []string{"LLVM_PROFILE_FILE=" + raw}, filepath.Join(build, "calc_test"))
		merged := filepath.Join(build, "calc_test.profdata")
		run(t, build, nil, profdata, "merge", "-sparse", raw, "-o", merged)
		exe := filepath.Join(build, "calc_test")
		store("cstub-clang.llvm.json", run(t, build, nil, llvmCov, "export", "-format=text", "-instr-profile="+merged, exe))
		store("cstub-clang.lcov", run(t, build, nil, llvmCov, "export", "-format=lcov", "-instr-profile="+merged, exe))
		// The export with no line data, which must be refused.
		store(cstubSummaryOnly, run(t, build, nil, llvmCov, "export", "-format=text", "-summary-only", "-instr-profile="+merged, exe))
	}

	// mingw-w64: the test runs under Wine, in a Wine prefix of its own;
	// the mingw gcov reads the .gcda files it wrote.
	const mingw = "x86_64-w64-mingw32-"
	if have(t, mingw+"gcc", mingw+"g++", mingw+"gcov", "wine") {
		build := buildStub(t, work, "build-mingw", mingw+"gcc", mingw+"g++", []string{"--coverage", "-O0"}, []string{"--coverage", "-static"}, sources)
		env := []string{"WINEPREFIX=" + filepath.Join(t.TempDir(), "wine"), "WINEDEBUG=-all"}
		run(t, build, env, "wine", filepath.Join(build, "calc_test.exe"))
		run(t, build, nil, mingw+"gcov", "-a", "-b", "calc.gcda", "calc_test.gcda", "guard.gcda")
		store("cstub-mingw.gcov", concatFiles(t, build, "*.gcov"))
	}
}

// buildStub compiles each source (absolute paths, as CMake passes them)
// into <work>/<dir>/<name>.o and links calc_test there.
func buildStub(t *testing.T, work, dir, cc, cxx string, compileFlags, linkFlags []string, sources map[string]string) string {
	t.Helper()
	build := filepath.Join(work, dir)
	if err := os.MkdirAll(build, 0o755); err != nil {
		t.Fatal(err)
	}
	var objects []string
	for _, name := range slices.Sorted(maps.Keys(sources)) {
		source := filepath.Join(work, sources[name])
		compiler := cc
		if strings.HasSuffix(source, ".cc") {
			compiler = cxx
		}
		object := filepath.Join(build, name+".o")
		run(t, build, nil, compiler, append(append([]string{}, compileFlags...), "-c", source, "-o", object)...)
		objects = append(objects, object)
	}
	exe := filepath.Join(build, "calc_test")
	if strings.Contains(cc, "mingw") {
		exe += ".exe"
	}
	run(t, build, nil, cxx, append(append(append([]string{}, linkFlags...), "-o", exe), objects...)...)
	return build
}

// run runs a command in dir and returns its stdout; a failure ends the
// test.
func run(t *testing.T, dir string, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v in %s: %v\n%s", cmd.Args, dir, err, stderr.String())
	}
	return stdout.Bytes()
}

// have reports whether every tool is installed, logging the first that is
// not.
func have(t *testing.T, tools ...string) bool {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Logf("%s not found; keeping the recordings that need it", tool)
			return false
		}
	}
	return true
}

// firstTool returns the first of names that is installed, or the last.
func firstTool(names ...string) string {
	for _, name := range names {
		if _, err := exec.LookPath(name); err == nil {
			return name
		}
	}
	return names[len(names)-1]
}

func globSorted(t *testing.T, dir, pattern string) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(matches)
	return matches
}

// concatFiles joins the files of dir matching pattern, in name order, as
// a caller of gcov joins its .gcov files into one report.
func concatFiles(t *testing.T, dir, pattern string) []byte {
	t.Helper()
	var all bytes.Buffer
	for _, f := range globSorted(t, dir, pattern) {
		all.Write(readFile(t, f))
	}
	return all.Bytes()
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func readTestdata(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	return data
}

// gunzip decompresses every member of a gzip stream.
func gunzip(t *testing.T, data []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return plain
}

func gzipBytes(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// importFile imports testdata/<file> with imp.
func importFile(t *testing.T, imp Importer, file string, opts Options) []schemas.FileCoverage {
	t.Helper()
	got, err := imp.Import(bytes.NewReader(readTestdata(t, file)), opts)
	if err != nil {
		t.Fatalf("importing %s: %v", file, err)
	}
	return got
}

// checkCoverageGolden compares files with testdata/<golden>, rewriting it
// under -update.
func checkCoverageGolden(t *testing.T, files []schemas.FileCoverage, golden string) {
	t.Helper()
	gotJSON, err := json.MarshalIndent(files, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	gotJSON = append(gotJSON, '\n')
	path := filepath.Join("testdata", golden)
	if *update {
		if err := os.WriteFile(path, gotJSON, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%v (run with -update to create it)", err)
	} else if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gotJSON, want) {
		t.Errorf("the import differs from %s (run with -update if the change is intended):\n%s", path, gotJSON)
	}
}
