package initmanifest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

// events renders go test2json output events, one a line.
func events(pkg string, lines ...[2]string) []byte {
	var b strings.Builder
	b.WriteString("$ go test -json ./...\n")
	for _, l := range lines {
		b.WriteString(`{"Action":"output","Package":"` + pkg + `","Test":"` + l[0] + `","Output":` + quote(l[1]) + "}\n")
	}
	return []byte(b.String())
}

func quote(s string) string {
	return `"` + strings.NewReplacer(`"`, `\"`, "\n", `\n`, "\t", `\t`).Replace(s) + `"`
}

func results(pairs ...string) []schemas.TestResult {
	var out []schemas.TestResult
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, schemas.TestResult{ID: pairs[i], Status: schemas.Status(pairs[i+1])})
	}
	return out
}

func TestProposeSkips(t *testing.T) {
	const pkg = "example.com/m"
	tests := []struct {
		name           string
		linux, windows []schemas.TestResult
		winLog         []byte
		style          string
		want           map[string][]Skip
	}{{
		name:    "fails on one side only: the first line of its own output",
		linux:   results(pkg+"/TestSep", "pass", pkg+"/TestOK", "pass"),
		windows: results(pkg+"/TestSep", "fail", pkg+"/TestOK", "pass"),
		winLog: events(pkg, [2]string{"TestSep", "=== RUN   TestSep\n"}, [2]string{"TestSep", "    sep_test.go:12: got \"a\\\\b\", want \"a/b\"\n"},
			[2]string{"TestSep", "    sep_test.go:13: second line\n"}, [2]string{"TestSep", "--- FAIL: TestSep (0.00s)\n"}),
		style: "go",
		want:  map[string][]Skip{"windows": {{Test: "TestSep", Reason: `sep_test.go:12: got "a\b", want "a/b"`}}},
	}, {
		name:    "a failing subtest skips its top-level test, explained by the subtest",
		linux:   results(pkg+"/TestDir", "pass", pkg+"/TestDir/apple", "pass", pkg+"/TestDir/win", "skip"),
		windows: results(pkg+"/TestDir", "fail", pkg+"/TestDir/apple", "pass", pkg+"/TestDir/win", "fail"),
		winLog: events(pkg, [2]string{"TestDir", "--- FAIL: TestDir (0.00s)\n"}, [2]string{"TestDir/apple", "    dir_test.go:20: a passing subtest's log\n"},
			[2]string{"TestDir/win", "    dir_test.go:40: no APPDATA\n"}),
		style: "go",
		want:  map[string][]Skip{"windows": {{Test: "TestDir", Reason: "dir_test.go:40: no APPDATA"}}},
	}, {
		name:    "failing subtests beside passing ones are proposed one by one, so the passing cases keep running",
		linux:   results(pkg+"/TestLook", "fail", pkg+"/TestLook/no_ext", "fail", pkg+"/TestLook/rel", "fail", pkg+"/TestLook/not_found", "pass", pkg+"/TestOK", "pass"),
		windows: results(pkg+"/TestLook", "pass", pkg+"/TestLook/no_ext", "pass", pkg+"/TestLook/rel", "pass", pkg+"/TestLook/not_found", "pass", pkg+"/TestOK", "pass"),
		style:   "go",
		want: map[string][]Skip{"linux": {
			{Test: "TestLook/no_ext", Reason: "fails on linux, passes on windows"},
			{Test: "TestLook/rel", Reason: "fails on linux, passes on windows"}}},
	}, {
		name:    "nested subtests: the deepest failing one, its failing parents left out",
		linux:   results(pkg+"/TestX", "pass", pkg+"/TestX/g", "pass", pkg+"/TestX/g/1", "pass", pkg+"/TestX/g/2", "pass", pkg+"/TestX/h", "pass"),
		windows: results(pkg+"/TestX", "fail", pkg+"/TestX/g", "fail", pkg+"/TestX/g/1", "fail", pkg+"/TestX/g/2", "pass", pkg+"/TestX/h", "pass"),
		winLog:  events(pkg, [2]string{"TestX/g/1", "    x_test.go:9: no drive letter\n"}),
		style:   "go",
		want:    map[string][]Skip{"windows": {{Test: "TestX/g/1", Reason: "x_test.go:9: no drive letter"}}},
	}, {
		name:    "no subtest passes: the whole test",
		linux:   results(pkg+"/TestY", "pass", pkg+"/TestY/a", "pass", pkg+"/TestY/b", "pass"),
		windows: results(pkg+"/TestY", "fail", pkg+"/TestY/a", "fail", pkg+"/TestY/b", "fail"),
		style:   "go",
		want:    map[string][]Skip{"windows": {{Test: "TestY", Reason: "fails on windows, passes on linux"}}},
	}, {
		name:    "a subtest that timed out takes its whole test, passing siblings or not",
		linux:   results(pkg+"/TestZ", "pass", pkg+"/TestZ/a", "pass", pkg+"/TestZ/b", "pass"),
		windows: results(pkg+"/TestZ", "fail", pkg+"/TestZ/a", "pass", pkg+"/TestZ/b", "timeout"),
		style:   "go",
		want:    map[string][]Skip{"windows": {{Test: "TestZ", Reason: "timed out on windows"}}},
	}, {
		name:    "libtest names no subtests: its entries stay whole",
		linux:   results("lib/m::a", "fail", "lib/m::b", "pass"),
		windows: results("lib/m::a", "pass", "lib/m::b", "pass"),
		style:   "libtest",
		want:    map[string][]Skip{"linux": {{Test: "m::a", Reason: "fails on linux, passes on windows"}}},
	}, {
		name:    "a doctest is no skip entry: rustdoc splits test arguments at spaces",
		linux:   results("normpath/src/lib.rs - PathExt::expand (line 60)", "pass", "normpath/tests::sep", "pass"),
		windows: results("normpath/src/lib.rs - PathExt::expand (line 60)", "fail", "normpath/tests::sep", "fail"),
		style:   "libtest",
		want:    map[string][]Skip{"windows": {{Test: "tests::sep", Reason: "fails on windows, passes on linux"}}},
	}, {
		name:    "a panic is proposed even when the test fails on the other side; tests that died with it are not",
		linux:   results(pkg+"/TestBoom", "fail", pkg+"/TestWaiting", "pass", pkg+"/TestAfter", "pass"),
		windows: results(pkg+"/TestBoom", "error", pkg+"/TestWaiting", "error", pkg+"/TestAfter", "missing"),
		winLog:  events(pkg, [2]string{"TestBoom", "panic: runtime error: index out of range [3] with length 3 [recovered]\n"}, [2]string{"TestBoom", "\tpanic: again\n"}),
		style:   "go",
		want:    map[string][]Skip{"windows": {{Test: "TestBoom", Reason: "panicked: runtime error: index out of range [3] with length 3"}}},
	}, {
		name:    "a panicking subtest: its parent is skipped, as panicked",
		linux:   results(pkg+"/TestP", "pass", pkg+"/TestP/a", "pass"),
		windows: results(pkg+"/TestP", "error", pkg+"/TestP/a", "error"),
		winLog:  events(pkg, [2]string{"TestP/a", "panic: nil map [recovered, repanicked]\n"}),
		style:   "go",
		want:    map[string][]Skip{"windows": {{Test: "TestP", Reason: "panicked: nil map"}}},
	}, {
		name:    "a crash with no panic in the log proposes every crashed test",
		linux:   results("bin/a", "pass", "bin/b", "pass"),
		windows: results("bin/a", "error", "bin/b", "error"),
		style:   "ctest",
		want: map[string][]Skip{"windows": {
			{Test: "a", Reason: "crashed (the test binary died)"}, {Test: "b", Reason: "crashed (the test binary died)"}}},
	}, {
		name:    "a package that crashes before its tests is not a skip entry",
		linux:   results(pkg+"/sub", "pass", pkg+"/sub/TestA", "pass"),
		windows: results(pkg+"/sub", "error"),
		style:   "go",
		want:    map[string][]Skip{},
	}, {
		name:    "a timeout on one side",
		linux:   results(pkg+"/TestLock", "pass"),
		windows: results(pkg+"/TestLock", "timeout"),
		winLog:  events(pkg, [2]string{"TestLock", "=== RUN   TestLock\n"}),
		style:   "go",
		want:    map[string][]Skip{"windows": {{Test: "TestLock", Reason: "timed out on windows"}}},
	}, {
		name:    "fails on both sides: not proposed; build failures and one-sided tests neither",
		linux:   results(pkg+"/TestBroken", "fail", pkg+"/TestBuild", "pass", pkg+"/TestUnixOnly", "fail"),
		windows: results(pkg+"/TestBroken", "fail", pkg+"/TestBuild", "build-failed", pkg+"/TestWinOnly", "fail"),
		style:   "go",
		want:    map[string][]Skip{},
	}, {
		name:    "failures on each side, libtest names and its panic message",
		linux:   results("lib/paths::sep", "fail", "lib/attrs::hidden", "pass"),
		windows: results("lib/paths::sep", "pass", "lib/attrs::hidden", "fail"),
		winLog: []byte("running 2 tests\n\nfailures:\n\n---- attrs::hidden stdout ----\nprinted first\nthread 'attrs::hidden' panicked at src/attrs.rs:9:5:\n" +
			"assertion `left == right` failed\n  left: false\n\nfailures:\n    attrs::hidden\n\ntest result: FAILED.\n"),
		style: "libtest",
		want: map[string][]Skip{
			"linux":   {{Test: "paths::sep", Reason: "fails on linux, passes on windows"}},
			"windows": {{Test: "attrs::hidden", Reason: "assertion `left == right` failed"}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ProposeSkips([]PlatformRun{
				{Platform: "linux", Tests: tt.linux, SkipStyle: tt.style},
				{Platform: "windows", Tests: tt.windows, Log: tt.winLog, SkipStyle: tt.style},
			})
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ProposeSkips:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}
