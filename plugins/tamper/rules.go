package tamper

import (
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/osbench/osbench/plugins/runner"
	_ "github.com/osbench/osbench/plugins/runner/all" // the runners whose output the scan knows
)

// Rule IDs, as findings name them. The runner-output rules' patterns are
// their runners' (plugins/runner), the IDs kept here for their order
// (legacyOutputOrder) and for the checks that name them.
const (
	RuleGoOutput       = "runner-output-go"
	RuleLibtestOutput  = "runner-output-libtest"
	RuleCTestOutput    = "runner-output-ctest"
	RuleTAPOutput      = "runner-output-tap"
	RuleJUnitOutput    = "runner-output-junit"
	RuleFraming        = "test2json-framing"
	RuleHarnessProbe   = "test-harness-probe"
	RuleInitTimeCode   = "init-time-code"
	RuleInitExit       = "init-exit"
	RuleInitOutput     = "init-output"
	RuleGoTestMain     = "go-testmain"
	RuleCMakeTests     = "cmake-test-definition"
	RuleCargoTests     = "cargo-test-definition"
	RuleCargoProgram   = "cargo-config-program"
	RuleBuildDownload  = "build-time-download"
	RuleBinaryContent  = "binary-content"
	RuleTestDefinition = "test-definition-file"
	RuleOtherProcess   = "other-process"
)

// lineRule is a pattern matched against single lines of one kind of file.
type lineRule struct {
	id, reason string
	pattern    *regexp.Regexp
	// files selects the files the rule reads (nil: every scanned file).
	files func(p string) bool
	// removedToo makes the rule read removed lines as well as added ones:
	// taking a test out of the definitions changes what counts as much as
	// putting one in.
	removedToo bool
}

// Languages by file name, for the rules that only make sense in one.
func isGo(p string) bool   { return path.Ext(p) == ".go" }
func isRust(p string) bool { return path.Ext(p) == ".rs" }
func isCSharp(p string) bool {
	return path.Ext(p) == ".cs"
}
func isCFamily(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".ipp", ".inl", ".tcc", ".m", ".mm":
		return true
	}
	return false
}
func isCMake(p string) bool {
	base := path.Base(p)
	return base == "CMakeLists.txt" || strings.HasSuffix(strings.ToLower(base), ".cmake")
}
func isCargoManifest(p string) bool { return path.Base(p) == "Cargo.toml" }

// isProse reports files nothing builds or runs: documentation may quote a
// runner's output without forging anything.
func isProse(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".rst", ".adoc", ".asciidoc", ".org":
		return true
	}
	return false
}

// lineRules are the single-line patterns: the runners' output rules
// first (runnerOutputRules), which read every scanned file (a shell script
// or a build file can print as well as a source file), then the others,
// held to the files where the construct means something.
var lineRules = append(runnerOutputRules(), otherLineRules...)

// legacyOutputOrder is the order the runners' output rules were read in
// when they lived here: findings on one patch line come in rule order, so
// it is kept; rules of runners added since follow, by ID.
var legacyOutputOrder = []string{RuleGoOutput, RuleLibtestOutput, RuleCTestOutput, RuleTAPOutput, RuleJUnitOutput}

// runnerOutputRules are the output rules of the registered runners
// (plugins/runner: each runner holds the pattern of its own output).
func runnerOutputRules() []lineRule {
	rank := func(id string) int {
		if i := slices.Index(legacyOutputOrder, id); i >= 0 {
			return i
		}
		return len(legacyOutputOrder)
	}
	var out []lineRule
	for _, r := range runnerOutputs() {
		out = append(out, lineRule{id: r.Output.ID, reason: r.Output.Reason, pattern: r.Output.Pattern})
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i].id) < rank(out[j].id) })
	return out
}

// runnerOutputs are the registered runners that have an output rule,
// sorted by the rule's ID.
func runnerOutputs() []*runner.Runner {
	var out []*runner.Runner
	for _, n := range runner.Names() {
		if r, _ := runner.Lookup(n); r.Output != nil && r.Output != runner.NoOutput {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Output.ID < out[j].Output.ID })
	return out
}

var otherLineRules = []lineRule{
	{id: RuleFraming, reason: "contains test2json's framing byte \\x16 (SYN), raw or escaped",
		pattern: regexp.MustCompile("\x16" + `|\\x16|\\026\b|\\u0016|\\U00000016|\\u\{16\}|\\x\{16\}`)},
	{id: RuleHarnessProbe, reason: "inspects how the test harness runs it (test flags, testing.Testing, the test binary's name, a test runner's environment)",
		pattern: regexp.MustCompile(`"-{1,2}test\.|"test\.(v|run|timeout|paniconexit0|count|coverprofile|gocoverdir|testlogfile|bench|short|list|failfast)"|flag\.Lookup\(\s*"test\.|\btesting\.Testing\(\)|"\.test(\.exe)?"|--test-threads|RUST_TEST_THREADS|DASHBOARD_TEST_FROM_CTEST|"CTEST_[A-Z_]*"|OSBENCH_RUN`)},
	{id: RuleInitTimeCode, reason: "runs code before main or the test harness (constructor, init section, module initializer)",
		pattern: regexp.MustCompile(`__attribute__\s*\(\(\s*(__)?constructor(__)?\b|#\s*pragma\s+(init|section\s*\(\s*"\.CRT)|__declspec\s*\(\s*allocate\s*\(\s*"\.CRT|\.CRT\$X|\.init_array|\.preinit_array|"\.ctors|__mod_init_func|#\[\s*(ctor::)?ctor\s*\]|\[\s*([\w.]+\.)?ModuleInitializer(Attribute)?\s*\]`)},
	{id: RuleInitTimeCode, reason: "keeps a static the program never names (#[used]), the way init-section entries are kept",
		pattern: regexp.MustCompile(`#\[\s*used\b`), files: isRust},
	{id: RuleGoTestMain, reason: "defines TestMain, which decides how a Go package's tests run",
		pattern: regexp.MustCompile(`^\s*func\s+TestMain\s*\(`), files: isGo},
	{id: RuleCMakeTests, reason: "changes what CTest runs as a test (add_test, test properties, a launcher or emulator)",
		pattern:    regexp.MustCompile(`(?i)\badd_test\s*\(|\bset_tests_properties\s*\(|\bset_property\s*\(\s*TEST\b|CROSSCOMPILING_EMULATOR|TEST_LAUNCHER|\bgtest_discover_tests\s*\(|\bcatch_discover_tests\s*\(|\bdoctest_discover_tests\s*\(`),
		files:      isCMake,
		removedToo: true},
	{id: RuleCargoTests, reason: "changes what cargo test runs as a test ([[test]], harness, test = false, autotests)",
		pattern:    regexp.MustCompile(`^\s*(\[\[\s*(test|bench)\s*\]\]|harness\s*=|test\s*=|autotests\s*=|autobenches\s*=)`),
		files:      isCargoManifest,
		removedToo: true},
	{id: RuleCargoTests, reason: "sets how cargo runs test binaries (a target runner)",
		pattern:    regexp.MustCompile(`^\s*runner\s*=|\.runner\s*=`),
		files:      isCargoConfig,
		removedToo: true},
	// The keys of a .cargo/config that run or choose programs at build
	// time, set the environment of what cargo runs, or change where
	// dependencies come from. The test step overrides the program keys
	// by environment (toolenv.Offline) and the apply step refuses new
	// [patch] and paths entries; the finding says someone tried.
	{id: RuleCargoProgram, reason: "sets a program cargo runs or an environment it gives them (rustc-wrapper, rustc, rustdoc, linker, rustflags, [env], [patch], [source])",
		pattern:    regexp.MustCompile(`^\s*((build\.|target\.\S+\.)?(rustc-wrapper|rustc-workspace-wrapper|rustc|rustdoc|linker|ar|rustflags|rustdocflags|credential-provider|global-credential-providers|paths|replace-with|registry|directory|local-registry)\s*=|\[\s*(env|patch|source|registries|registry|host|credential-alias)\b|env\.)`),
		files:      isCargoConfig,
		removedToo: true},
	// What a test program under Wine needs to forge the Windows entry
	// tracer's record (docs/security.md, "Left for the structural
	// defences"): Wine keeps no process of a prefix from another, so the
	// tracer is safe only from code that never reaches into another
	// process, detaches its debugger or makes Linux system calls of its
	// own. Some honest code does (a liveness check with OpenProcess); the
	// finding is for people.
	{id: RuleOtherProcess, reason: "reaches into another process or its debugger (opens, writes, starts threads in or sets the contexts of another process, detaches a debugger, ptrace, raw system calls)",
		pattern: regexp.MustCompile(`\b(OpenProcess|OpenThread|WriteProcessMemory|VirtualAllocEx|VirtualProtectEx|CreateRemoteThread(Ex)?|NtCreateThreadEx|RtlCreateUserThread|SetThreadContext|NtSetContextThread|NtQueueApcThread|QueueUserAPC|DebugActiveProcess(Stop)?|NtRemoveProcessDebug|DbgUiStopDebugging|NtSetInformationDebugObject|ProcessDebugObjectHandle|PTRACE_[A-Z]+|SYS_PTRACE|process_vm_writev)\b|\bptrace\s*\(`),
		files:   func(p string) bool { return isGo(p) || isRust(p) || isCFamily(p) || isCSharp(p) }},
	{id: RuleOtherProcess, reason: "makes system calls in assembly (under Wine, Linux system calls that leave Windows)",
		pattern: regexp.MustCompile(`(?i)^\s*(syscall|sysenter|int\s+\$?0x80)\b`),
		files:   isAssembly},
	// Build files that download: the way back to the original sources
	// when a build can reach the network (builds run without it when
	// osbench is root; elsewhere this finding is what is left).
	{id: RuleBuildDownload, reason: "downloads at build time (a URL fetch in a build script or CMake file)",
		pattern: regexp.MustCompile(`(?i)\bfile\s*\(\s*DOWNLOAD\b|\bFetchContent_Declare\b|\bExternalProject_Add\b|\b(curl|wget)\b|TcpStream::connect|\b(reqwest|ureq|attohttpc)::|index\.crates\.io|static\.crates\.io|proxy\.golang\.org`),
		files:   isBuildScript},
}

// isAssembly reports assembly sources (Go's .s, GNU's .s and .S, MASM's
// .asm).
func isAssembly(p string) bool {
	switch path.Ext(p) {
	case ".s", ".S", ".asm":
		return true
	}
	return false
}

// isBuildScript reports files whose code runs when the repository is
// built: CMake files, cargo build scripts, shell and make files.
func isBuildScript(p string) bool {
	base := path.Base(p)
	switch {
	case isCMake(p), base == "build.rs", base == "Makefile", base == "GNUmakefile", base == "configure.ac", base == "Makefile.am":
		return true
	}
	switch path.Ext(base) {
	case ".sh", ".mk", ".bash":
		return true
	}
	return false
}

// isCargoConfig reports cargo's configuration files, which can name a
// runner for every test binary.
func isCargoConfig(p string) bool {
	dir, base := path.Split(p)
	return path.Base(strings.TrimSuffix(dir, "/")) == ".cargo" && (base == "config" || base == "config.toml")
}

// testDefinitionFiles are files that define, by their mere presence, what
// a test runner runs: any edit to them is reported.
func isTestDefinitionFile(p string) bool {
	switch path.Base(p) {
	case "CTestTestfile.cmake", "CTestCustom.cmake", "CTestConfig.cmake", "DartConfiguration.tcl":
		return true
	}
	return false
}

// Init-time blocks: code that runs before the test harness gets control.
var (
	goInit = regexp.MustCompile(`^\s*func\s+init\s*\(\s*\)`)
	// Only a package-level var (gofmt writes it unindented) whose func
	// literal is called on the spot runs at init; the call is checked where
	// the block closes.
	goVarFunc    = regexp.MustCompile(`^var\s+[\w, ]+(\s+[\w.*\[\]]+)?\s*=\s*func\s*\(`)
	calledFunc   = regexp.MustCompile(`^\s*\}\s*\(`)
	cConstructor = regexp.MustCompile(`__attribute__\s*\(\(\s*(__)?constructor(__)?\b|\[\s*([\w.]+\.)?ModuleInitializer(Attribute)?\s*\]|#\[\s*(ctor::)?ctor\s*\]`)
	// initSection finds entries placed in an init section; the names after
	// "=" are the functions they call.
	initSection = regexp.MustCompile(`\.init_array|\.preinit_array|\.CRT\$X|"\.ctors|__mod_init_func`)
	sectionRefs = regexp.MustCompile(`=\s*&?\[?\s*&?([A-Za-z_]\w*)`)
	cFuncName   = regexp.MustCompile(`([A-Za-z_]\w*)\s*\(`)
)

// exitCalls and outputCalls, per language, are what init-time code must
// not do: end the process (before any test ran, with the status the
// harness reads), or write where the parser reads.
var (
	exitCalls = map[string]*regexp.Regexp{
		"go":   regexp.MustCompile(`\b(os|syscall|unix)\.Exit\s*\(|\bruntime\.Goexit\s*\(`),
		"c":    regexp.MustCompile(`\b(_exit|_Exit|exit|quick_exit|ExitProcess|TerminateProcess|std::exit|std::_Exit|std::quick_exit)\s*\(|\bsyscall\s*\(\s*(SYS_exit|SYS_exit_group|60|231)\b`),
		"rust": regexp.MustCompile(`\bprocess::exit\s*\(|\blibc::_?exit\s*\(|\b_exit\s*\(|\bExitProcess\s*\(`),
		"cs":   regexp.MustCompile(`\bEnvironment\.(Exit|FailFast)\s*\(`),
	}
	outputCalls = map[string]*regexp.Regexp{
		"go":   regexp.MustCompile(`\bfmt\.(Print|Fprint)|\bos\.(Stdout|Stderr)\b|\bprintln\s*\(|\bprint\s*\(|\blog\.(Print|Fatal|Panic)|\bsyscall\.Write\s*\(`),
		"c":    regexp.MustCompile(`\b(printf|puts|fputs|fprintf|dprintf|fwrite|putchar|putc|write|WriteFile|WriteConsoleA?W?)\s*\(|std::(cout|cerr|clog|printf|puts)\b`),
		"rust": regexp.MustCompile(`\b(e?println|e?print|writeln|write)!|\bstdout\s*\(\)|\bstderr\s*\(\)|\blibc::write\s*\(`),
		"cs":   regexp.MustCompile(`\bConsole\.(Write|Out|Error)`),
	}
)

// languageOf names the exit/output call set for a file, "" for files with
// no init-time blocks.
func languageOf(p string) string {
	switch {
	case isGo(p):
		return "go"
	case isCFamily(p):
		return "c"
	case isRust(p):
		return "rust"
	case isCSharp(p):
		return "cs"
	}
	return ""
}
