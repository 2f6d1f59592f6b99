package parsers

import (
	"path/filepath"
	"strings"
	"testing"
)

// The libtest recordings: `cargo test --no-fail-fast 2>&1` over
// testdata/libstub, by the cargo on PATH (recorded with cargo 1.95) with
// libtest's default parallel threads and with one thread, and by Debian
// 12's cargo 1.65 with its rustc 1.63. The two Windows files are written by
// hand after the Linux runs, in the documented shapes of cargo on Windows
// (backslashes, ".exe", exit codes instead of signals): the current one and
// that of cargo 1.52, which named no source for unit tests.
const (
	libtestRecorded       = "libstub-cargo.txt"
	libtestRecordedSerial = "libstub-cargo-serial.txt"
	libtestRecordedDebian = "libstub-cargo-debian.txt"
	libtestWindows        = "libstub-cargo-windows.txt"
	libtestWindows152     = "libstub-cargo-1.52-windows.txt"
)

func TestLibtestGolden(t *testing.T) {
	if *update {
		recordLibstub(t)
	}
	for _, input := range []string{libtestRecorded, libtestRecordedSerial, libtestRecordedDebian, libtestWindows, libtestWindows152} {
		t.Run(input, func(t *testing.T) {
			golden := strings.TrimSuffix(input, ".txt") + ".golden.json"
			checkGolden(t, &Libtest{}, input, golden, Options{})
		})
	}
}

// What the stub was written to show, for every recording made with the
// source-naming cargo.
var libstubStatuses = results{
	"src/lib.rs/tests::adds":                 "pass",
	"src/lib.rs/tests::fails":                "fail",
	"src/lib.rs/tests::ignored":              "skip",
	"src/lib.rs/tests::ignored_with_reason":  "skip",
	"src/lib.rs/tests::panics_as_expected":   "pass",
	"src/lib.rs/tests::nested::deep":         "pass",
	"tests/integration.rs/smoke":             "pass",
	"tests/integration.rs/prints_uncaptured": "pass",
	"doctest/src/lib.rs - add":               "pass",
	"doctest/src/lib.rs - sub [1]":           "fail",
	"doctest/src/lib.rs - sub [2]":           "skip",
	"doctest/src/lib.rs - Point":             "pass",
}

func TestLibtestGoldenKeyStatuses(t *testing.T) {
	for _, input := range []string{libtestRecorded, libtestRecordedSerial, libtestRecordedDebian, libtestWindows} {
		t.Run(input, func(t *testing.T) {
			got := parseWith(t, &Libtest{}, filepath.Join("testdata", input), Options{})
			checkStatuses(t, got, libstubStatuses)
		})
	}
	// With one thread libtest names each test before running it, so the
	// test that took the binary down is known.
	serial := parseWith(t, &Libtest{}, filepath.Join("testdata", libtestRecordedSerial), Options{})
	checkStatuses(t, serial, results{"tests/crash.rs/aborts": "error", "tests/crash.rs": ""})
	// In parallel the binary died before naming anyone: the binary stands
	// for its tests, unless they are expected.
	parallel := parseWith(t, &Libtest{}, filepath.Join("testdata", libtestRecorded), Options{})
	checkStatuses(t, parallel, results{"tests/crash.rs": "error", "tests/crash.rs/aborts": ""})
	expected := []string{"tests/crash.rs/aborts", "src/lib.rs/tests::adds"}
	withExpected := parseWith(t, &Libtest{}, filepath.Join("testdata", libtestRecorded), Options{Expected: expected})
	checkStatuses(t, withExpected, results{
		"tests/crash.rs":         "",
		"tests/crash.rs/aborts":  "missing",
		"src/lib.rs/tests::adds": "pass",
	})
	// Cargo 1.52 on Windows names unit tests by their binary.
	old := parseWith(t, &Libtest{}, filepath.Join("testdata", libtestWindows152), Options{})
	checkStatuses(t, old, results{
		"unittests/libstub/tests::adds":  "pass",
		"unittests/libstub/tests::fails": "fail",
		"tests/integration.rs/smoke":     "pass",
		"doctest/src/lib.rs - add":       "pass",
		"doctest/src/lib.rs - Point":     "pass",
	})
}

// The same tests run on Linux and on Windows get the same ids.
func TestLibtestSameIDsOnWindows(t *testing.T) {
	linux := parseWith(t, &Libtest{}, filepath.Join("testdata", libtestRecorded), Options{})
	windows := parseWith(t, &Libtest{}, filepath.Join("testdata", libtestWindows), Options{})
	checkSameResults(t, "Linux and Windows results", linux, windows)
}

// recordLibstub reruns the stub crate's tests with each cargo installed.
// Each run works on a fresh copy, so that build products and Cargo.lock
// never land in testdata/, and the copy is the working directory, so that
// cargo prints paths relative to it.
func recordLibstub(t *testing.T) {
	t.Helper()
	src := filepath.Join("testdata", "libstub")
	env := []string{"CARGO_TERM_COLOR=never", "RUST_BACKTRACE=0", "CARGO_TARGET_DIR=target"}
	args := []string{"test", "--offline", "--no-fail-fast"}
	recorder{tool: "cargo", args: args, dir: copyTree(t, src), env: env, stderr: true}.
		record(t, libtestRecorded)
	recorder{tool: "cargo", args: append(args, "--", "--test-threads=1"), dir: copyTree(t, src), env: env, stderr: true}.
		record(t, libtestRecordedSerial)
	debian := append(env, "PATH=/usr/bin:/bin", "RUSTC=/usr/bin/rustc", "RUSTDOC=/usr/bin/rustdoc")
	recorder{tool: "/usr/bin/cargo", args: args, dir: copyTree(t, src), env: debian, stderr: true}.
		record(t, libtestRecordedDebian)
}

var libtestCases = []parserCase{
	{
		name: "current cargo names the source of each binary",
		input: stream(
			"     Running unittests src/lib.rs (target/debug/deps/foo-1a2b3c4d5e6f7a8b)",
			"",
			"running 2 tests",
			"test tests::a ... ok",
			"test tests::b ... FAILED",
			"",
			"test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
			"     Running tests/it.rs (target/debug/deps/it-0123456789abcdef)",
			"running 1 test",
			"test smoke ... ignored, slow",
			"test result: ok. 0 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s",
		),
		want: results{"src/lib.rs/tests::a": "pass", "src/lib.rs/tests::b": "fail", "tests/it.rs/smoke": "skip"},
	},
	{
		name: "windows paths, .exe and absolute target dirs give the same keys",
		input: stream(
			`     Running unittests src\lib.rs (C:\w\target\debug\deps\foo-1a2b3c4d5e6f7a8b.exe)`,
			"test tests::a ... ok",
			"test result: ok. 1 passed; 0 failed",
			`     Running tests\sub\it.rs (target\debug\deps\it-0123456789abcdef.EXE)`,
			"test smoke ... ok",
			"test result: ok. 1 passed; 0 failed",
			"   Doc-tests foo",
			`test src\lib.rs - add (line 5) ... ok`,
			"test result: ok. 1 passed; 0 failed",
		),
		want: results{"src/lib.rs/tests::a": "pass", "tests/sub/it.rs/smoke": "pass", "doctest/src/lib.rs - add": "pass"},
	},
	{
		name: "cargo 1.52 to the source-naming release: unit tests keyed by binary name",
		input: stream(
			"     Running unittests (target/debug/deps/foo_bar-1a2b3c4d5e6f7a8b)",
			"test tests::a ... ok",
			"test result: ok. 1 passed; 0 failed",
			`     Running unittests (target\debug\deps\foo_bar-1a2b3c4d5e6f7a8b.exe)`,
			"test tests::a ... FAILED",
			"test result: FAILED. 0 passed; 1 failed",
		),
		want: results{"unittests/foo_bar/tests::a": "fail"},
	},
	{
		name: "cargo before 1.52: every binary keyed by its name",
		input: stream(
			"     Running target/debug/deps/foo-1a2b3c4d5e6f7a8b",
			"test tests::a ... ok",
			"test result: ok. 1 passed; 0 failed",
			`     Running C:\t\debug\deps\it-1a2b3c4d5e6f7a8b.exe`,
			"test smoke ... ok",
			"test result: ok. 1 passed; 0 failed",
			"     Running target/debug/deps/no_hash",
			"test x ... ok",
			"test result: ok. 1 passed; 0 failed",
		),
		want: results{"foo/tests::a": "pass", "it/smoke": "pass", "no_hash/x": "pass"},
	},
	{
		name: "test modes, bench padding and result variants",
		input: stream(
			"     Running unittests src/lib.rs (target/debug/deps/foo-1a2b3c4d5e6f7a8b)",
			"test tests::p - should panic ... ok",
			"test bench_short  ... bench:         12 ns/iter (+/- 3)",
			"test bench_longer ... bench:      1,234 ns/iter (+/- 56)",
			"test tests::timed ... ok <0.001s>",
			"test tests::slow ... FAILED (time limit exceeded)",
			"test tests::slow_ok has been running for over 60 seconds",
			"test tests::slow_ok ... ok",
			"test result: FAILED.",
			"   Doc-tests foo",
			"test src/lib.rs - Point (line 27) - compile fail ... ok",
			"test src/lib.rs - main (line 3) - compile ... ok",
			"test src/lib.rs - a::b (line 9) - should panic ... FAILED",
			"test result: FAILED.",
		),
		want: results{
			"src/lib.rs/tests::p": "pass", "src/lib.rs/bench_short": "pass", "src/lib.rs/bench_longer": "pass",
			"src/lib.rs/tests::timed": "pass", "src/lib.rs/tests::slow": "timeout", "src/lib.rs/tests::slow_ok": "pass",
			"doctest/src/lib.rs - Point": "pass", "doctest/src/lib.rs - main": "pass",
			"doctest/src/lib.rs - a::b": "fail",
		},
	},
	{
		// A doctest's line moves with the code above it (a mask, a patch):
		// its id must not. Several doctests of one item are numbered in
		// line order, whatever order they finish in.
		name: "doctest ids without lines, numbered per item",
		input: stream(
			"   Doc-tests foo",
			"test src/lib.rs - sub (line 40) ... FAILED",
			"test src/lib.rs - sub (line 12) ... ok",
			"test src/lib.rs - add (line 120) ... ok",
			"test result: FAILED.",
		),
		want: results{"doctest/src/lib.rs - sub [1]": "pass", "doctest/src/lib.rs - sub [2]": "fail", "doctest/src/lib.rs - add": "pass"},
	},
	{
		name: "a result pushed to the next line by uncaptured output",
		input: stream(
			"     Running tests/it.rs (target/debug/deps/it-0123456789abcdef)",
			"test a ... printed by a C library",
			"ok",
			"test b ... more output",
			"and more",
			"FAILED",
			"test c ... output without a newline ok",
			"test d ... ",
			"",
			"failures:",
			"",
			"---- b stdout ----",
			"failures:",
			"    b",
			"    d",
			"",
			"test result: FAILED. 2 passed; 2 failed",
		),
		want: results{"tests/it.rs/a": "pass", "tests/it.rs/b": "fail", "tests/it.rs/c": "pass", "tests/it.rs/d": "fail"},
	},
	{
		name: "a binary that dies while a test runs: that test is the error",
		input: stream(
			"     Running tests/crash.rs (target/debug/deps/crash-0123456789abcdef)",
			"running 3 tests",
			"test a ... ok",
			"test b ... error: test failed, to rerun pass `--test crash`",
			"",
			"Caused by:",
			"  process didn't exit successfully: `/w/target/debug/deps/crash-0123456789abcdef` (signal: 11, SIGSEGV: invalid memory reference)",
			"     Running tests/next.rs (target/debug/deps/next-0123456789abcdef)",
			"test n ... ok",
			"test result: ok. 1 passed",
		),
		want: results{"tests/crash.rs/a": "pass", "tests/crash.rs/b": "error", "tests/next.rs/n": "pass"},
	},
	{
		name: "a parallel binary that dies names no test: its key is the error",
		input: stream(
			"     Running tests/crash.rs (target/debug/deps/crash-0123456789abcdef)",
			"running 3 tests",
			"test a ... ok",
			"error: test failed, to rerun pass `--test crash`",
		),
		want: results{"tests/crash.rs/a": "pass", "tests/crash.rs": "error"},
	},
	{
		name: "a dead binary with expected tests leaves them missing",
		input: stream(
			"     Running tests/crash.rs (target/debug/deps/crash-0123456789abcdef)",
			"running 2 tests",
		),
		expected: []string{"tests/crash.rs/a", "tests/crash.rs/b"},
		want:     results{"tests/crash.rs/a": "missing", "tests/crash.rs/b": "missing"},
	},
	{
		name: "the stream cut inside a binary",
		input: stream(
			"     Running tests/it.rs (target/debug/deps/it-0123456789abcdef)",
			"test a ... ",
		),
		want: results{"tests/it.rs/a": "error"},
	},
	{
		name: "a compile error makes unseen expected tests build-failed",
		input: stream(
			"   Compiling foo v0.1.0 (/w/foo)",
			"error[E0425]: cannot find value `x` in this scope",
			"error: could not compile `foo` (lib test) due to 1 previous error",
		),
		expected: []string{"src/lib.rs/tests::a", ""},
		want:     results{"src/lib.rs/tests::a": "build-failed"},
	},
	{
		name: "a compile error with nothing expected names the crate",
		input: stream(
			"error: could not compile `foo` due to previous error",
			"error: could not compile `bar-baz`.",
		),
		want: results{"foo": "build-failed", "bar-baz": "build-failed"},
	},
	{
		name: "stdout alone: bare names, binaries told apart by their first line",
		input: stream(
			"running 1 test",
			"test a ... ok",
			"test result: ok. 1 passed",
			"running 2 tests",
			"test b ... ok",
			"test c ... ",
		),
		want: results{"a": "pass", "b": "pass", "c": "error"},
	},
	{
		name: "lookalikes are not status lines",
		input: stream(
			"Running unittests src/lib.rs (not indented, so test output)",
			"     Running ",
			"     Running unittests  (x)",
			"     Running unittests src/lib.rs ()",
			"     Running two words",
			"     Running unittests (target/debug/deps/)",
			"     Running target/debug/deps/",
			"   Doc-tests ",
			"running many tests",
			"test no separator",
			"test x ... maybe",
			"ok",
			"ok",
		),
		want: results{"x": "pass"},
	},
	{
		name:  "colours are stripped",
		input: "\x1b[1m\x1b[92m     Running\x1b[0m tests/it.rs (target/debug/deps/it-0123456789abcdef)\ntest a ... \x1b[32mok\x1b[0m\ntest result: ok.\n\x1b]0;title\x07\x1b[",
		want:  results{"tests/it.rs/a": "pass"},
	},
	{
		name:     "expected tests never seen are missing; CRLF is fine",
		input:    "     Running tests/it.rs (target/debug/deps/it-0123456789abcdef)\r\ntest a ... ok\r\ntest result: ok.\r\n",
		expected: []string{"tests/it.rs/a", "tests/it.rs/gone", "tests/it.rs/gone"},
		want:     results{"tests/it.rs/a": "pass", "tests/it.rs/gone": "missing"},
	},
	{
		name:  "empty input",
		input: "",
		want:  results{},
	},
}

func TestLibtestEdgeCases(t *testing.T) {
	checkTable(t, &Libtest{}, libtestCases)
}

func TestBinaryName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"target/debug/deps/foo-1a2b3c4d5e6f7a8b", "foo"},
		{`C:\w\target\debug\deps\foo_bar-1a2b3c4d5e6f7a8b.exe`, "foo_bar"},
		{"deps/foo-1A2B3C4D5E6F7A8B", "foo-1A2B3C4D5E6F7A8B"}, // cargo's hashes are lower case
		{"deps/foo-1a2b", "foo-1a2b"},                         // too short for a hash
		{"deps/-1a2b3c4d5e6f7a8b", "-1a2b3c4d5e6f7a8b"},       // nothing before the hash
		{"runner.exe", "runner"},
		{".exe", ".exe"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := binaryName(tc.in); got != tc.want {
			t.Errorf("binaryName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzLibtest(f *testing.F) {
	fuzzParser(f, &Libtest{}, libtestCases, false)
}
