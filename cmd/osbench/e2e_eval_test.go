package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/schemas/schematest"
)

// evalRun is one `osbench eval` and what it printed.
type evalRun struct {
	stdout, stderr string
	code           int
	ran            []string // IDs of the steps that ran (from the JSON log)
}

func runEval(t *testing.T, cacheDir string, args ...string) evalRun {
	t.Helper()
	stdout, stderr, code := runOsbench(t, cacheDir, append([]string{"--log-format", "json", "eval"}, args...)...)
	r := evalRun{stdout: stdout, stderr: stderr, code: code}
	sc := bufio.NewScanner(strings.NewReader(stderr))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev struct{ Step, Status string }
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Status == "ran" {
			r.ran = append(r.ran, ev.Step)
		}
	}
	sort.Strings(r.ran)
	return r
}

func readSummary(t *testing.T, out string) map[string]schemas.ModelSummary {
	t.Helper()
	var s schemas.EvalSummary
	readJSON(t, filepath.Join(out, "summary.json"), &s)
	m := map[string]schemas.ModelSummary{}
	for _, ms := range s.Models {
		m[ms.Model] = ms
	}
	return m
}

func readReport(t *testing.T, out, model, instance string) schemas.EvalReport {
	t.Helper()
	var r schemas.EvalReport
	readJSON(t, filepath.Join(out, model, instance, "report.json"), &r)
	return r
}

func taskIDs(t *testing.T, tasksFile string) []string {
	t.Helper()
	b, err := os.ReadFile(tasksFile)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var task struct {
			ID string `json:"instance_id"`
		}
		if err := json.Unmarshal([]byte(line), &task); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, task.ID)
	}
	return ids
}

// TestEvalGoldAndEmpty is the harness's own check: every task's gold patch
// resolves it and the empty patch resolves none, with every test run served
// from the build; every report and the
// summary are valid; evaluating again runs nothing; `osbench report`
// renders the same files again.
func TestEvalGoldAndEmpty(t *testing.T) {
	cacheDir, out := exportCorpus(t)
	tasks := filepath.Join(out, "tasks.jsonl")
	ids := taskIDs(t, tasks)
	evalOut := filepath.Join(out, "eval")
	first := runEval(t, cacheDir, "--tasks", tasks, "--predictions", "gold", "--predictions", "empty", "--out", evalOut)
	if first.code != 0 {
		t.Fatalf("eval: exit %d\n%s%s", first.code, first.stdout, first.stderr)
	}
	// The gold patch gives back R+ and the empty patch leaves R−: their
	// runs are the build's gold re-runs and masked runs (same trees, same
	// eval timeout), so the first evaluation runs no test at all.
	for _, id := range first.ran {
		if strings.HasSuffix(id, "/test") {
			t.Errorf("first eval ran test step %s; gold and empty runs must be served from the build", id)
		}
	}
	sum := readSummary(t, evalOut)
	if g := sum["gold"]; g.Total != len(ids) || g.Resolved != len(ids) || g.TargetOnly != len(ids) {
		t.Errorf("gold: %d of %d resolved, %d target-only; want all %d", g.Resolved, g.Total, g.TargetOnly, len(ids))
	}
	if e := sum["empty"]; e.Total != len(ids) || e.Resolved != 0 || e.TargetOnly != 0 {
		t.Errorf("empty: %d of %d resolved, %d target-only; want none", e.Resolved, e.Total, e.TargetOnly)
	}
	if n := sum["gold"].TamperSuspected + sum["empty"].TamperSuspected; n != 0 {
		t.Errorf("summary counts %d tamper-suspected gold or empty patches, want 0", n)
	}
	reportSchema, summarySchema := schematest.Compile(t, "eval-report"), schematest.Compile(t, "eval-summary")
	schematest.ValidateFile(t, summarySchema, filepath.Join(evalOut, "summary.json"))
	for _, model := range []string{"gold", "empty"} {
		for _, id := range ids {
			schematest.ValidateFile(t, reportSchema, filepath.Join(evalOut, model, id, "report.json"))
			r := readReport(t, evalOut, model, id)
			// The gold patches put back the task's own code: nothing in
			// them may look like forgery.
			if r.TamperSuspected || r.TamperRules == "" {
				t.Errorf("%s/%s: tamper scan (rules %q) flagged %+v", model, id, r.TamperRules, r.TamperFindings)
			}
			if !r.StageI.Ran || !r.StageII.Ran || r.StageI.Log == nil {
				t.Errorf("%s/%s: a stage did not run or has no log: %+v", model, id, r)
				continue
			}
			if _, err := os.Stat(filepath.Join(evalOut, model, id, r.StageI.Log.Path)); err != nil {
				t.Errorf("%s/%s: stage I log: %v", model, id, err)
			}
			if model == "empty" && r.StageII.Passed != true {
				// The masks never touch what the source runs (validated at build).
				t.Errorf("empty/%s: Stage II failed on %v", id, r.StageII.Failing)
			}
		}
	}

	again := runEval(t, cacheDir, "--tasks", tasks, "--predictions", "gold", "--predictions", "empty", "--out", evalOut)
	if again.code != 0 || len(again.ran) != 0 || !strings.Contains(again.stdout, " 0 ran, 0 failed") {
		t.Errorf("second eval ran %v; want every step cached\n%s", again.ran, again.stdout)
	}

	before := snapshotDir(t, evalOut)
	for _, f := range []string{"summary.json", "summary.md", "report.html"} {
		os.Remove(filepath.Join(evalOut, f))
	}
	if stdout, stderr, code := runOsbench(t, cacheDir, "report", evalOut); code != 0 {
		t.Fatalf("report: exit %d\n%s%s", code, stdout, stderr)
	}
	sameFiles(t, before, snapshotDir(t, evalOut))
}

// agentPatch edits files of a task's masked repository and returns the
// change as a patch (git diff in a scratch copy of the repository).
func agentPatch(t *testing.T, repo string, edit func(dir string)) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	if out, err := exec.Command("cp", "-a", repo, dir).CombinedOutput(); err != nil {
		t.Fatalf("copy %s: %v\n%s", repo, err, out)
	}
	edit(dir)
	cmd := exec.Command("git", "-C", dir, "-c", "core.quotepath=off", "diff", "--binary")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	b, err := cmd.Output()
	if err != nil || len(b) == 0 {
		t.Fatalf("git diff: %v (%d bytes)", err, len(b))
	}
	return string(b)
}

func writePredictions(t *testing.T, path string, preds ...[3]string) {
	t.Helper()
	var b bytes.Buffer
	for _, p := range preds {
		line, _ := json.Marshal(map[string]string{"instance_id": p[0], "model_name_or_path": p[1], "model_patch": p[2]})
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEvalAgentPatches evaluates prepared patches: one that restores the
// target but breaks the source (Stage I pass, Stage II fail), patches that
// reach outside the repository (rejected, nothing outside touched), a bad
// line and an unknown task (reported, the rest evaluated); then one byte of
// one patch changes and only that prediction's steps run again.
func TestEvalAgentPatches(t *testing.T) {
	cacheDir, out := exportCorpus(t)
	tasks := filepath.Join(out, "tasks.jsonl")
	const breaks = "pathsep__linux-to-windows"
	repo := filepath.Join(out, "tasks", breaks, "repo")
	// The gold patch, plus case-insensitive names everywhere: right on
	// Windows, wrong on Linux, where "/A" and "/a" are different files.
	breaking := agentPatch(t, repo, func(dir string) {
		cmd := exec.Command("git", "-C", dir, "apply")
		cmd.Stdin = strings.NewReader(goldPatch(t, tasks, breaks))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("gold patch: %v\n%s", err, out)
		}
		p := filepath.Join(dir, "compare.go")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		const linux = "\t\treturn strings.EqualFold(a, b)\n\t}\n\treturn a == b\n"
		if !bytes.Contains(b, []byte(linux)) {
			t.Fatalf("sameName not as expected in compare.go:\n%s", b)
		}
		b = bytes.Replace(b, []byte(linux), []byte("\t\treturn strings.EqualFold(a, b)\n\t}\n\treturn strings.EqualFold(a, b)\n"), 1)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	})
	// The first escape also forges: an init that prints a pass line and
	// exits. It is rejected for the path, and scanned all the same.
	forge := "diff --git a/forge.go b/forge.go\nnew file mode 100644\n--- /dev/null\n+++ b/forge.go\n@@ -0,0 +1,5 @@\n" +
		"+package fsapi\n+\n+import (\"fmt\"; \"os\")\n+\n+func init() { fmt.Println(\"--- PASS: TestListVisible (0.00s)\"); os.Exit(0) }\n"
	escapes := map[string]string{
		"fsapi__linux-to-windows":   forge + "diff --git a/../escaped.txt b/../escaped.txt\nnew file mode 100644\n--- /dev/null\n+++ b/../escaped.txt\n@@ -0,0 +1 @@\n+out\n",
		"fsapi__windows-to-linux":   "--- /dev/null\n+++ /tmp/osbench-escaped.txt\n@@ -0,0 +1 @@\n+out\n",
		"lineend__linux-to-windows": "diff --git a/link b/link\nnew file mode 120000\n--- /dev/null\n+++ b/link\n@@ -0,0 +1 @@\n+../../../../..\n\\ No newline at end of file\n",
	}
	gold := goldPatch(t, tasks, "lineend__windows-to-linux")
	preds := filepath.Join(t.TempDir(), "agent.jsonl")
	lines := [][3]string{{breaks, "agent", breaking}, {"lineend__windows-to-linux", "agent", gold}}
	for id, p := range escapes {
		lines = append(lines, [3]string{id, "agent", p})
	}
	writePredictions(t, preds, lines...)
	f, _ := os.OpenFile(preds, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{\"instance_id\": \"pathsep__linux-to-windows\",\n") // line 6: malformed
	f.WriteString(`{"instance_id":"nosuch__linux-to-windows","model_name_or_path":"agent","model_patch":""}` + "\n")
	f.Close()

	outside := filepath.Dir(cacheDir)
	evalOut := filepath.Join(out, "eval")
	before := snapshotOutside(t, outside, cacheDir, evalOut)
	r := runEval(t, cacheDir, "--tasks", tasks, "--predictions", preds, "--out", evalOut)
	if r.code != 1 {
		t.Errorf("eval with bad lines: exit %d, want 1", r.code)
	}
	for _, want := range []string{preds + ":6: malformed JSON", preds + ":7: unknown instance_id \"nosuch__linux-to-windows\""} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr does not name %q", want)
		}
	}
	if _, err := os.Stat("/tmp/osbench-escaped.txt"); err == nil {
		t.Error("a patch wrote /tmp/osbench-escaped.txt")
	}
	sameFiles(t, before, snapshotOutside(t, outside, cacheDir, evalOut))

	rep := readReport(t, evalOut, "agent", breaks)
	if !rep.StageI.Passed || rep.StageII.Passed || rep.Resolved || rep.Outcome != schemas.OutcomeUnresolved {
		t.Errorf("target-fixing, source-breaking patch: stage I %v (failing %v), stage II %v, outcome %s; want true, false, unresolved\n%s",
			rep.StageI.Passed, rep.StageI.Failing, rep.StageII.Passed, rep.Outcome, readFile(t, filepath.Join(evalOut, "agent", breaks, "logs", "windows.log")))
	}
	if len(rep.StageII.Failing) == 0 {
		t.Error("Stage II lists no failing test")
	}
	for id := range escapes {
		if rep := readReport(t, evalOut, "agent", id); rep.Outcome != schemas.OutcomePatchRejected || rep.StageI.Ran {
			t.Errorf("%s: outcome %s (%s), stage I ran %v; want patch-rejected, nothing run", id, rep.Outcome, rep.Apply.Reason, rep.StageI.Ran)
		}
	}
	if rep := readReport(t, evalOut, "agent", "lineend__windows-to-linux"); !rep.Resolved {
		t.Errorf("the gold patch sent by an agent: %s", rep.Outcome)
	}
	rules := map[string]bool{}
	forged := readReport(t, evalOut, "agent", "fsapi__linux-to-windows")
	for _, f := range forged.TamperFindings {
		if f.File == "forge.go" {
			rules[f.Rule] = true
		}
	}
	if !forged.TamperSuspected || !rules["runner-output-go"] || !rules["init-exit"] {
		t.Errorf("forging patch: tamper_suspected %v, findings %+v; want runner-output-go and init-exit in forge.go", forged.TamperSuspected, forged.TamperFindings)
	}
	if !strings.Contains(r.stderr, "eval: 1 predictions are tamper-suspected") {
		t.Error("stderr does not say that one prediction is tamper-suspected")
	}
	sum := readSummary(t, evalOut)["agent"]
	if sum.Total != 5 || sum.Resolved != 1 || sum.TargetOnly != 2 || sum.Gap != 1 || sum.PatchRejected != 3 || sum.TamperSuspected != 1 {
		t.Errorf("summary: %+v, %d tamper suspected (want 1)", sum.EvalCounts, sum.TamperSuspected)
	}

	// One byte more in one patch: only that prediction's steps run.
	lines[1][2] = gold + "\n"
	writePredictions(t, preds, lines...)
	r = runEval(t, cacheDir, "--tasks", tasks, "--predictions", preds, "--out", evalOut)
	if r.code != 0 || len(r.ran) == 0 {
		t.Fatalf("eval after a one-byte change: exit %d, ran %v\n%s", r.code, r.ran, r.stderr)
	}
	for _, id := range r.ran {
		if !strings.HasPrefix(id, "eval/agent/lineend__windows-to-linux/") {
			t.Errorf("step %s ran; only the changed prediction's steps should", id)
		}
	}
}

// TestEvalInfraFailure: a run that cannot start is retried once, reported
// as an infrastructure failure (not the patch's fault) and never cached.
func TestEvalInfraFailure(t *testing.T) {
	cacheDir, out := exportCorpus(t)
	const broken = "pathsep__windows-to-linux"
	var lines []string
	for _, line := range strings.Split(readFile(t, filepath.Join(out, "tasks.jsonl")), "\n") {
		if strings.Contains(line, `"instance_id":"`+broken+`"`) {
			var task map[string]any
			json.Unmarshal([]byte(line), &task)
			task["environment"].(map[string]any)["linux"].(map[string]any)["test_command"] = []string{"/nonexistent/osbench-test-runner"}
			b, _ := json.Marshal(task)
			lines = append(lines, string(b))
		}
	}
	tasks := filepath.Join(out, "tasks-broken.jsonl")
	if err := os.WriteFile(tasks, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	evalOut := filepath.Join(out, "eval")
	for run := 1; run <= 2; run++ {
		r := runEval(t, cacheDir, "--tasks", tasks, "--predictions", "gold", "--out", evalOut)
		if r.code != 1 || !strings.Contains(r.stdout, "retried after an infrastructure failure") || !strings.Contains(r.stderr, "1 predictions could not be judged") {
			t.Fatalf("run %d: exit %d, want 1 (an infra failure is no verdict), a retry and a word on stderr\n%s%s", run, r.code, r.stdout, r.stderr)
		}
		rep := readReport(t, evalOut, "gold", broken)
		if rep.Outcome != schemas.OutcomeInfraFailure || rep.Resolved || !strings.Contains(rep.StageI.InfraFailure, "osbench-test-runner") {
			t.Errorf("run %d: outcome %s, stage I infra failure %q", run, rep.Outcome, rep.StageI.InfraFailure)
		}
		if n := readSummary(t, evalOut)["gold"].InfraFailures; n != 1 {
			t.Errorf("run %d: summary counts %d infra failures, want 1", run, n)
		}
	}
}

// goldPatch is a task's gold patch.
func goldPatch(t *testing.T, tasks, instance string) string {
	t.Helper()
	for _, line := range strings.Split(readFile(t, tasks), "\n") {
		var task struct {
			ID    string `json:"instance_id"`
			Patch string `json:"patch"`
		}
		if json.Unmarshal([]byte(line), &task) == nil && task.ID == instance {
			return task.Patch
		}
	}
	t.Fatalf("no task %s in %s", instance, tasks)
	return ""
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// snapshotOutside maps path → content of every file under dir except
// under the excluded directories (the cache, whose work dirs the
// evaluation uses, and the evaluation's output).
func snapshotOutside(t *testing.T, dir string, excluded ...string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		for _, x := range excluded {
			if p == x {
				return filepath.SkipDir
			}
		}
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[p] = string(b)
		} else if d.Type()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			m[p] = "symlink to " + target
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
