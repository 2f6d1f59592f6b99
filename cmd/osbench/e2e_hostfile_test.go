package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The host-file class of issue 19, as fixtures of ours against the example
// tasks: patches that restore nothing themselves but compile, at build
// time, the complete sources from where the manifest's path source lives
// on the host (the osbench checkout's testdata/repos), or apply the gold
// patch read from the tasks.jsonl a build left in its --out dir. Without
// the command's view of the file system each of them resolves (checked by
// hand: see docs/security.md); with it the file is not there, the build
// uses the masked code, and the task stays unresolved. The gold patches,
// evaluated in the same eval, all resolve.

// hostFileOut is the setup of exportCorpus with the --out dir outside
// /tmp, where a real build's exports lie: every command's private /tmp
// hides the test's own temporary dirs already, so a read of a tasks.jsonl
// under /tmp would prove nothing about the view.
func hostFileOut(t *testing.T) (cacheDir, out string) {
	t.Helper()
	requireCorpus(t)
	dir := reachableTempDir(t)
	cacheDir = filepath.Join(dir, "cache")
	if err := copyCache(cacheDir); err != nil {
		t.Fatal(err)
	}
	examples := filepath.Join(dir, "examples")
	if err := copyExamples(examples); err != nil {
		t.Fatal(err)
	}
	base, err := os.MkdirTemp("/var/cache", "osbench-e2e-out-")
	if err != nil {
		t.Skipf("no dir outside /tmp for the exports: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	out = filepath.Join(base, "out")
	if stdout, stderr, code := runOsbench(t, cacheDir, "build", examples, "--out", out); code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, stdout, stderr)
	}
	return cacheDir, out
}

// goldFiles are the repository paths a task's gold patch writes: the
// masked files.
func goldFiles(t *testing.T, tasks, id string) []string {
	t.Helper()
	var files []string
	for _, m := range regexp.MustCompile(`(?m)^diff --git a/(\S+) b/`).FindAllStringSubmatch(goldPatch(t, tasks, id), -1) {
		files = append(files, m[1])
	}
	if len(files) == 0 {
		t.Fatalf("%s: the gold patch writes no file", id)
	}
	return files
}

// goldReader is a build-time program of the patch's (run by a CMake
// configure step): it reads the gold patch of its task from a tasks.jsonl
// and applies it to the source tree before the build.
const goldReader = `use strict;
use JSON::PP;
my ($tasks, $id) = @ARGV;
open(my $f, '<', $tasks) or do { print "OSBENCH-GOLD-READER cannot open $tasks: $!\n"; exit 0 };
while (my $line = <$f>) {
    my $task = eval { decode_json($line) } or next;
    next unless $task->{instance_id} eq $id;
    open(my $p, '|-', 'patch', '-p1', '--forward') or die "patch: $!";
    print $p $task->{patch};
    close($p);
    print "OSBENCH-GOLD-READER applied the gold patch of $id\n";
    exit 0;
}
print "OSBENCH-GOLD-READER no task $id in $tasks\n";
`

// hostCopier is a build.rs that copies files (repository paths) from the
// host's tree at root over the repository's, saying what it did as cargo
// warnings, which land in the stage log.
func hostCopier(root string, files []string) string {
	var b strings.Builder
	b.WriteString("fn main() {\n")
	for _, f := range files {
		fmt.Fprintf(&b, "    match std::fs::read(%q) {\n", filepath.Join(root, f))
		fmt.Fprintf(&b, "        Ok(b) => { std::fs::write(%q, b).unwrap(); println!(\"cargo:warning=OSBENCH-COPIER copied %s\"); }\n", f, f)
		fmt.Fprintf(&b, "        Err(e) => println!(\"cargo:warning=OSBENCH-COPIER cannot read %s: {}\", e),\n", filepath.Join(root, f))
		b.WriteString("    }\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// TestEvalHostFilesUnreadable evaluates the host-file forgers:
//   - C, on Linux and under Wine (mingw): every masked file becomes an
//     #include of the complete file at the path source's host path;
//   - Rust: lib.rs takes every masked module from the host path
//     (#[path = "/abs/..."] mod paths;), so cargo compiles the original;
//   - Rust: a build script copies the complete masked files from the
//     host over the tree's before the crate compiles;
//   - C: a CMake configure step runs a Perl program of the patch's that
//     reads the gold patch from the build's tasks.jsonl and applies it.
//
// Each stays unresolved, and its stage log shows why: the host file could
// not be read.
func TestEvalHostFilesUnreadable(t *testing.T) {
	cacheDir, out := hostFileOut(t)
	tasks := filepath.Join(out, "tasks.jsonl")
	if info, err := os.Stat(tasks); err != nil || info.Mode().Perm()&0o004 == 0 {
		t.Fatalf("%s: %v, %v: the run user could not read it even without the view, the test proves nothing", tasks, info, err)
	}
	repos := filepath.Join(repoRoot, "testdata", "repos")
	repo := func(id string) string { return filepath.Join(out, "tasks", id, "repo") }
	write := func(dir, file, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	type forger struct {
		id, model string
		patch     string
		// inLog is what the stage log must say: the build looked for the
		// host file and did not find it.
		inLog *regexp.Regexp
	}
	var forgers []forger
	// C: #include of the complete file from the host.
	for _, id := range []string{"cpath__windows-to-linux", "cpath__linux-to-windows"} {
		var included []string
		patch := agentPatch(t, repo(id), func(dir string) {
			for _, f := range goldFiles(t, tasks, id) {
				if !isCSource(f) {
					continue
				}
				host := filepath.Join(repos, "cpath", f)
				if _, err := os.Stat(host); err != nil {
					t.Fatalf("%s: the masked file %s is not at the host path %s: %v", id, f, host, err)
				}
				write(dir, f, "/* the complete file, from the host */\n#include \""+host+"\"\n")
				included = append(included, host)
			}
		})
		if len(included) == 0 {
			t.Fatalf("%s: the gold patch writes no C file", id)
		}
		forgers = append(forgers, forger{id, "host-include", patch,
			regexp.MustCompile(regexp.QuoteMeta(included[0]) + `.*No such file or directory|No such file or directory.*` + regexp.QuoteMeta(included[0]))})
	}
	// Rust: the masked modules from the host, by #[path].
	{
		id := "rsplat__windows-to-linux"
		var first string
		patch := agentPatch(t, repo(id), func(dir string) {
			b, err := os.ReadFile(filepath.Join(dir, "src", "lib.rs"))
			if err != nil {
				t.Fatal(err)
			}
			lib := string(b)
			for _, f := range goldFiles(t, tasks, id) {
				mod := strings.TrimSuffix(strings.TrimPrefix(f, "src/"), ".rs")
				decl := "pub mod " + mod + ";"
				if !strings.HasPrefix(f, "src/") || !strings.Contains(lib, decl) {
					continue
				}
				host := filepath.Join(repos, "rsplat", f)
				lib = strings.Replace(lib, decl, "#[path = \""+host+"\"]\n"+decl, 1)
				if first == "" {
					first = host
				}
			}
			if first == "" {
				t.Fatalf("%s: no masked module declared in src/lib.rs", id)
			}
			write(dir, "src/lib.rs", lib)
		})
		forgers = append(forgers, forger{id, "host-include", patch, regexp.MustCompile(`couldn't read .*` + regexp.QuoteMeta(first))})
	}
	// Rust: a build script that copies the complete masked files from
	// the host over the tree's before the crate compiles.
	{
		id := "rsplat__windows-to-linux"
		var files []string
		for _, f := range goldFiles(t, tasks, id) {
			if strings.HasPrefix(f, "src/") && strings.HasSuffix(f, ".rs") {
				files = append(files, f)
			}
		}
		if len(files) == 0 {
			t.Fatalf("%s: the gold patch writes no .rs file under src/", id)
		}
		patch := agentPatch(t, repo(id), func(dir string) {
			write(dir, "build.rs", hostCopier(filepath.Join(repos, "rsplat"), files))
			gitAddIntent(t, dir, "build.rs")
		})
		forgers = append(forgers, forger{id, "host-copy", patch,
			regexp.MustCompile(`OSBENCH-COPIER cannot read ` + regexp.QuoteMeta(filepath.Join(repos, "rsplat", files[0])) + `: No such file or directory`)})
	}
	// C: the gold patch from the build's tasks.jsonl, at configure time.
	{
		id := "cpath__windows-to-linux"
		patch := agentPatch(t, repo(id), func(dir string) {
			b, err := os.ReadFile(filepath.Join(dir, "CMakeLists.txt"))
			if err != nil {
				t.Fatal(err)
			}
			write(dir, "gold-reader.pl", goldReader)
			gitAddIntent(t, dir, "gold-reader.pl")
			step := "execute_process(COMMAND perl ${CMAKE_SOURCE_DIR}/gold-reader.pl " + tasks + " " + id + " WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})\n"
			write(dir, "CMakeLists.txt", step+string(b))
		})
		forgers = append(forgers, forger{id, "tasks-reader", patch, regexp.MustCompile(`OSBENCH-GOLD-READER cannot open ` + regexp.QuoteMeta(tasks) + `: No such file or directory`)})
	}

	var preds [][3]string
	for _, f := range forgers {
		preds = append(preds, [3]string{f.id, f.model, f.patch})
	}
	predFile := filepath.Join(t.TempDir(), "hostfile.jsonl")
	writePredictions(t, predFile, preds...)
	evalOut := filepath.Join(reachableTempDir(t), "eval")
	r := runEval(t, cacheDir, "--tasks", tasks, "--predictions", "gold", "--predictions", predFile, "--out", evalOut)
	if r.code != 0 {
		t.Fatalf("eval: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	ids := taskIDs(t, tasks)
	if g := readSummary(t, evalOut)["gold"]; g.Total != len(ids) || g.Resolved != len(ids) {
		t.Errorf("gold: %d of %d resolved; want all", g.Resolved, g.Total)
	}
	for _, f := range forgers {
		rep := readReport(t, evalOut, f.model, f.id)
		if rep.Resolved || !rep.StageI.Ran {
			t.Errorf("%s/%s: outcome %s, stage I ran %v: want unresolved after a run", f.model, f.id, rep.Outcome, rep.StageI.Ran)
		}
		if rep.StageI.Log == nil {
			t.Errorf("%s/%s: stage I has no log", f.model, f.id)
			continue
		}
		log := readFile(t, filepath.Join(evalOut, f.model, f.id, rep.StageI.Log.Path))
		if !f.inLog.MatchString(log) {
			t.Errorf("%s/%s: the stage I log does not say the host file was missing (%s); outcome %s, stage I failing %v, not graded %q, stage II failing %v, not graded %q:\n%s",
				f.model, f.id, f.inLog, rep.Outcome, rep.StageI.Failing, rep.StageI.NotGraded, rep.StageII.Failing, rep.StageII.NotGraded, tail(log, 40))
		}
	}
}

func isCSource(p string) bool {
	switch filepath.Ext(p) {
	case ".c", ".h":
		return true
	}
	return false
}

func gitAddIntent(t *testing.T, dir, file string) {
	t.Helper()
	if out, err := exec.Command("git", "-C", dir, "add", "--intent-to-add", file).CombinedOutput(); err != nil {
		t.Fatalf("git add: %v\n%s", err, out)
	}
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
