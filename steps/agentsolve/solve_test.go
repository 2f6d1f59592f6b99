package agentsolve

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/checkout"
)

// The masked task every agent below starts from.
var taskFiles = map[string]string{
	"w.go":        "package w\n\nfunc One() string { return \"\" }\n",
	"w_test.go":   "package w\n\n// the task's test\n",
	"old.txt":     "old\n",
	"moved.txt":   strings.Repeat("a line that stays the same when the file moves\n", 10),
	"run.sh":      "#!/bin/sh\n",
	"sub/keep.go": "package sub\n",
}

// solveCase is one scripted agent: a shell script run in the workspace.
type solveCase struct {
	name, script string
	wall         string
	// steps and cost are the budgets (steps 7 unless set).
	steps int
	cost  float64
	want  Result // Files, DroppedTestFiles, Refused (reasons as substrings), ExitCode, TimedOut, budgets
	// after holds files the patch, applied to the masked tree, must give
	// ("" for absent).
	after map[string]string
	// allow is network.allow; side the side artifacts the step must keep
	// ("" for none by that name).
	allow []string
	side  map[string]string
	// secrets is secret_env.
	secrets []string
	// target is the task's TargetRun; sideHas lines side artifacts must
	// hold.
	target  *TargetRun
	sideHas map[string][]string
}

// solveCases are the scripted agents; lm is an HTTP server on the host's
// loopback that network.allow lists, other one that it does not; hostDir
// a host directory the agent must not see.
func solveCases(lm, other, hostDir string) []solveCase {
	none := []string{}
	return []solveCase{
		{
			name: "every kind of change is in the patch",
			script: `printf 'package w\n\nfunc One() string { return "one" }\n' > w.go
printf 'new\n' > new.txt
rm old.txt
git mv -q moved.txt renamed.txt 2>/dev/null || mv moved.txt renamed.txt
chmod +x sub/keep.go
printf '\000\001\002' > blob.bin
ln -s w.go link.go`,
			want: Result{Files: []string{"blob.bin", "link.go", "new.txt", "old.txt", "renamed.txt", "sub/keep.go", "w.go"}, DroppedTestFiles: none},
			after: map[string]string{"w.go": "package w\n\nfunc One() string { return \"one\" }\n", "new.txt": "new\n", "old.txt": "",
				"moved.txt": "", "renamed.txt": taskFiles["moved.txt"], "blob.bin": "\x00\x01\x02", "link.go": "-> w.go", "sub/keep.go": "x package sub\n"},
		},
		{
			name:   "test files are dropped and listed, the rest kept",
			script: `echo '// forged' >> w_test.go; printf 'package w\n' > extra_test.go; echo 'x' > notes.txt`,
			want:   Result{Files: []string{"notes.txt"}, DroppedTestFiles: []string{"extra_test.go", "w_test.go"}},
			after:  map[string]string{"w_test.go": taskFiles["w_test.go"], "extra_test.go": "", "notes.txt": "x\n"},
		},
		{
			name:   "a big file and a nested repository are refused",
			script: `head -c 5000 /dev/zero > big.dat; mkdir -p vendor/x/.git; echo c > vendor/x/.git/config; echo ok > small.txt`,
			want: Result{Files: []string{"small.txt"}, DroppedTestFiles: none,
				Refused: []Refusal{{Path: "big.dat", Reason: "over the limit of 4096"}, {Path: "vendor/x/.git", Reason: "nested git repository"}}},
			after: map[string]string{"big.dat": "", "small.txt": "ok\n"},
		},
		{
			name:   "the workspace's own git is not the baseline",
			script: `echo changed > old.txt; rm -rf .git; git init -q; echo changed > moved.txt`,
			want:   Result{Files: []string{"moved.txt", "old.txt"}, DroppedTestFiles: none},
		},
		{
			name:   "the contract: instruction, task and target in the environment",
			script: `cp "$OSBENCH_INSTRUCTION" instruction.md; echo "$OSBENCH_TASK_ID $OSBENCH_TARGET $OSBENCH_SOURCE $OSBENCH_ATTEMPT $OSBENCH_MAX_STEPS" > env.txt; test "$PWD" = "$OSBENCH_WORKSPACE" && test "$(command -v notes)" = "$OSBENCH_AGENT_DIR/notes" && cat "$OSBENCH_AGENT_DIR/notes" >> env.txt; echo '{}' > "$OSBENCH_ARTIFACTS/trajectory.json"; ln -s /etc/passwd "$OSBENCH_ARTIFACTS/link"; exit 3`,
			want:   Result{Files: []string{"env.txt", "instruction.md"}, DroppedTestFiles: none, ExitCode: 3},
			after:  map[string]string{"env.txt": "r-1 linux windows 2 7\nagent notes\n"},
			// Its own record goes to $OSBENCH_ARTIFACTS, kept beside
			// its output; a link there is not followed.
			side: map[string]string{"agent-trajectory.json": "{}\n", "agent-link": ""},
		},
		{
			// The proxy is the one way out (root only: elsewhere the
			// agent has the host's network and no proxy is set up).
			name: "the network: network.allow through the proxy, nothing else",
			script: `curl -s --noproxy '*' http://` + lm + `/direct > direct.txt
curl -s http://` + lm + `/proxied > proxied.txt
curl -s -o /dev/null -w '%{http_connect}' https://proxy.golang.org/ > registry.txt
curl -s -o /dev/null -w '%{http_code}' http://` + other + `/ > other.txt
echo "[$(ls ` + hostDir + ` 2>/dev/null)]" > host.txt; exit 0`,
			allow: []string{lm},
			want:  Result{Files: []string{"direct.txt", "host.txt", "other.txt", "proxied.txt", "registry.txt"}, DroppedTestFiles: none},
			after: map[string]string{"direct.txt": "lm /direct", "proxied.txt": "lm /proxied", "registry.txt": "403", "other.txt": "403", "host.txt": "[]\n"},
			side: map[string]string{SideEgress: "allowed GET http://" + lm + "/direct\nallowed GET http://" + lm + "/proxied\n" +
				"refused CONNECT proxy.golang.org:443: not in network.allow\nrefused GET http://" + other + "/: not in network.allow\n"},
		},
		{
			// secret_env values never reach the stored logs.
			name: "a secret the agent prints is redacted from its logs",
			script: `echo "key $OSBENCH_TEST_AGENT_SECRET."; echo "err $OSBENCH_TEST_AGENT_SECRET" >&2
echo "{\"key\": \"$OSBENCH_TEST_AGENT_SECRET\"}" > "$OSBENCH_ARTIFACTS/trajectory.json"`,
			secrets: []string{"OSBENCH_TEST_AGENT_SECRET"},
			want:    Result{Files: none, DroppedTestFiles: none},
			side: map[string]string{SideStdout: "key [secret OSBENCH_TEST_AGENT_SECRET].\n", SideStderr: "err [secret OSBENCH_TEST_AGENT_SECRET]\n",
				"agent-trajectory.json": "{\"key\": \"[secret OSBENCH_TEST_AGENT_SECRET]\"}\n"},
		},
		{
			// osbench-target runs the task's test command through the
			// target's executor on a copy of the workspace: what the
			// agent changed is tested, what the tests wrote is not the
			// agent's.
			name: "osbench-target runs the target's tests on a copy of the workspace",
			script: `osbench-target test > /dev/null 2>&1; echo "before $?" > status.txt
echo fixed > fixed.txt
osbench-target test > out.txt 2>&1; echo "after $?" >> status.txt
grep -c '^the test saw fixed$' out.txt >> status.txt; rm out.txt
osbench-target nonsense 2>/dev/null; echo "usage $?" >> status.txt`,
			target: &TargetRun{Executor: "local", Fingerprint: "test", Env: map[string]string{"TARGET_VAR": "set"}, Timeout: "1m",
				Test: schemas.Command{Shell: "bash", Argv: []string{"echo junk > junk.txt", "test \"$TARGET_VAR\" = set", "cat fixed.txt", "echo the test saw fixed"}}},
			want:  Result{Files: []string{"fixed.txt", "status.txt"}, DroppedTestFiles: none},
			after: map[string]string{"status.txt": "before 1\nafter 0\n1\nusage 2\n", "junk.txt": ""},
			sideHas: map[string][]string{SideTarget: {
				"osbench-target: run 1, test on linux (local executor), a copy of the workspace\n",
				"osbench-target: exit 1\n", "the test saw fixed\nosbench-target: exit 0\n",
			}},
		},
		{
			// An agent that stops reading (a `| head`): the rest of the
			// output is dropped for it, kept in the transcript, and the
			// next run goes on.
			name: "osbench-target and an agent that stops reading",
			script: `osbench-target test | head -c 10 > /dev/null
osbench-target test > out.txt 2>&1; tail -n 1 out.txt > last.txt; rm out.txt`,
			wall: "40s",
			target: &TargetRun{Executor: "local", Fingerprint: "test", Env: map[string]string{}, Timeout: "5m",
				Test: schemas.Command{Shell: "bash", Argv: []string{"head -c 400000 /dev/zero | tr '\\0' x", "echo", "echo the end"}}},
			want:    Result{Files: []string{"last.txt"}, DroppedTestFiles: none},
			after:   map[string]string{"last.txt": "the end\n"},
			sideHas: map[string][]string{SideTarget: {"the end\nosbench-target: exit 0\nosbench-target: run 2, "}},
		},
		{
			// A model call is a POST the proxy passes over plain HTTP;
			// the one after budget.steps is refused and the agent
			// ended, not left to sleep out its wall budget.
			name: "over budget.steps: the next model call refused, the agent ended, its patch kept",
			script: `echo early > early.txt
for i in 1 2 3 4; do curl -s -o /dev/null -w '%{http_code}\n' -X POST -d '{}' --noproxy '*' http://` + lm + `/v1/chat/completions >> codes.txt; done
curl -s -X POST -d '{}' http://` + lm + `/v1/responses > late.txt
sleep 120; echo late > late.txt`,
			steps: 3, wall: "100s", allow: []string{lm},
			want: Result{Files: []string{"codes.txt", "early.txt"}, DroppedTestFiles: none, ExitCode: -1,
				ModelCalls: 3, BudgetExceeded: "budget exceeded: steps 4 > 3"},
			sideHas: map[string][]string{SideEgress: {
				"allowed POST http://" + lm + "/v1/chat/completions (model call 3)\n",
				"refused POST http://" + lm + "/v1/chat/completions: model call 4 over budget.steps 3\n",
			}},
		},
		{
			// The agent's own report: running totals, the last one
			// counts; a bad line is counted and skipped.
			name: "usage within budget is recorded",
			script: `echo "$OSBENCH_MAX_COST" > cost.txt
echo '{"steps":1,"cost_usd":0.25,"input_tokens":100}' >> "$OSBENCH_USAGE"
echo 'not usage' >> "$OSBENCH_USAGE"
printf '{"steps":2,"cost_usd":0.5,"input_tokens":300,"output_tokens":20}' >> "$OSBENCH_USAGE"`,
			cost: 1.5,
			want: Result{Files: []string{"cost.txt"}, DroppedTestFiles: none,
				Usage: &Usage{Steps: 2, CostUSD: 0.5, InputTokens: 300, OutputTokens: 20, BadLines: 1}},
			after: map[string]string{"cost.txt": "1.5\n"},
			side:  map[string]string{SideUsage: "{\"steps\":1,\"cost_usd\":0.25,\"input_tokens\":100}\nnot usage\n{\"steps\":2,\"cost_usd\":0.5,\"input_tokens\":300,\"output_tokens\":20}"},
		},
		{
			name: "over budget.cost as reported: the agent ended, its patch kept",
			script: `echo early > early.txt
echo '{"steps":1,"cost_usd":0.75}' >> "$OSBENCH_USAGE"
echo '{"steps":2,"cost_usd":1.25}' >> "$OSBENCH_USAGE"
sleep 120; echo late > late.txt`,
			cost: 1, wall: "100s",
			want: Result{Files: []string{"early.txt"}, DroppedTestFiles: none, ExitCode: -1,
				Usage: &Usage{Steps: 2, CostUSD: 1.25}, BudgetExceeded: "budget exceeded: cost 1.25 > 1 USD (reported)"},
		},
		{
			name:   "over budget.steps as reported: the agent ended",
			script: `echo '{"steps":8}' >> "$OSBENCH_USAGE"; sleep 120; echo late > late.txt`,
			wall:   "100s",
			want: Result{Files: none, DroppedTestFiles: none, ExitCode: -1,
				Usage: &Usage{Steps: 8}, BudgetExceeded: "budget exceeded: steps 8 > 7 (reported)"},
		},
		{
			name:   "out of time: killed, and what it wrote is still the patch",
			script: `echo early > early.txt; sleep 30; echo late > late.txt`,
			wall:   "2s",
			want:   Result{Files: []string{"early.txt"}, DroppedTestFiles: none, ExitCode: -1, TimedOut: true},
		},
	}
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		perm := os.FileMode(0o644)
		if strings.HasSuffix(name, ".sh") {
			perm = 0o755
		}
		if err := os.WriteFile(p, []byte(content), perm); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSolve(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	// An osbench running as root runs the agent as an unprivileged user,
	// who must be able to reach the work dirs under the cache.
	for _, d := range []string{filepath.Dir(root), root} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c, err := cache.Open(filepath.Join(root, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(root, "task")
	writeTree(t, src, taskFiles)
	notes := filepath.Join(root, "notes")
	if err := os.WriteFile(notes, []byte("agent notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tree, err := checkout.HashLocal(src)
	if err != nil {
		t.Fatal(err)
	}
	steps := []*engine.Step{{
		ID: "r/checkout", Kind: checkout.Kind, Group: "r",
		Config: []engine.Field{{Name: "tree", Value: tree}},
		Local:  map[string]string{checkout.LocalPath: src},
	}}
	t.Setenv("OSBENCH_TEST_AGENT_SECRET", "sk-agent-secret-0123")
	lm, other := httpServer(t, "lm"), httpServer(t, "other")
	cases := solveCases(lm, other, src)
	if !isolated() {
		cases = slices.DeleteFunc(cases, func(c solveCase) bool { return c.allow != nil })
	}
	for _, tc := range cases {
		wall := tc.wall
		if wall == "" {
			wall = "1m"
		}
		maxSteps := tc.steps
		if maxSteps == 0 {
			maxSteps = 7
		}
		cfg := Config{
			InstanceID: "r-1", TaskDigest: "sha256:0", ProblemStatement: "Port r to Linux.", Language: "go", Source: "windows", Target: "linux",
			TargetTest: []string{"go", "test", "./..."}, Host: "linux", InstructionVersion: InstructionVersion, Attempt: 2,
			Executor: "local", MaxFileBytes: 4096,
			Agent: Agent{Name: "sh", Command: []string{"sh", "-c", tc.script}, Wall: wall, Steps: maxSteps, Cost: tc.cost, Allow: tc.allow, SecretEnv: tc.secrets,
				Files: map[string]string{"notes": FileDigest([]byte("agent notes\n"))}},
			TargetRun: tc.target,
		}
		steps = append(steps, &engine.Step{
			ID: "r/solve/" + tc.name, Kind: Kind, Group: "r",
			Config: engine.Fields(cfg, func(string) string { return "test" }),
			Inputs: []engine.Input{{Name: InputSource, Step: "r/checkout"}},
			Local:  map[string]string{LocalFilePrefix + "notes": notes},
		})
	}
	g, err := engine.NewGraph(steps)
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(c, engine.Options{Jobs: 2, KeepGoing: true})
	rep, err := eng.Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := rep.Step("r/solve/" + tc.name)
			if res.Status != engine.StatusRan {
				t.Fatalf("status %s: %s", res.Status, res.Error)
			}
			arts, err := eng.Artifacts(res)
			if err != nil {
				t.Fatal(err)
			}
			var got Result
			if err := arts.DecodeJSON(OutputResult, &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Refused) != len(tc.want.Refused) {
				t.Errorf("refused = %+v, want %+v", got.Refused, tc.want.Refused)
			} else {
				for i, r := range tc.want.Refused {
					if got.Refused[i].Path != r.Path || !strings.Contains(got.Refused[i].Reason, r.Reason) {
						t.Errorf("refused[%d] = %+v, want %+v", i, got.Refused[i], r)
					}
				}
			}
			if !reflect.DeepEqual(got.Files, tc.want.Files) || !reflect.DeepEqual(got.DroppedTestFiles, tc.want.DroppedTestFiles) ||
				got.ExitCode != tc.want.ExitCode || got.TimedOut != tc.want.TimedOut {
				t.Errorf("solve.json = files %q, dropped %q, exit %d, timed out %t; want %q, %q, %d, %t",
					got.Files, got.DroppedTestFiles, got.ExitCode, got.TimedOut,
					tc.want.Files, tc.want.DroppedTestFiles, tc.want.ExitCode, tc.want.TimedOut)
			}
			if got.ModelCalls != tc.want.ModelCalls || !reflect.DeepEqual(got.Usage, tc.want.Usage) || got.BudgetExceeded != tc.want.BudgetExceeded {
				t.Errorf("solve.json budgets = model calls %d, usage %+v, exceeded %q; want %d, %+v, %q",
					got.ModelCalls, got.Usage, got.BudgetExceeded, tc.want.ModelCalls, tc.want.Usage, tc.want.BudgetExceeded)
			}
			patch, err := arts.Bytes(OutputPatch)
			if err != nil {
				t.Fatal(err)
			}
			if got.PatchDigest != FileDigest(patch) {
				t.Errorf("patch digest %s does not match the patch", got.PatchDigest)
			}
			checkApplies(t, patch, tc.after)
			for name, lines := range tc.sideHas {
				got, err := arts.Side(name)
				for _, l := range lines {
					if err != nil || !strings.Contains(string(got), l) {
						t.Errorf("side artifact %s: %v: no %q in\n%s", name, err, l, got)
					}
				}
			}
			for name, want := range tc.side {
				got, err := arts.Side(name)
				if want == "" && err == nil {
					t.Errorf("side artifact %s kept: %q", name, got)
				}
				if want != "" && (err != nil || string(got) != want) {
					t.Errorf("side artifact %s: %v\n%s\nwant:\n%s", name, err, got, want)
				}
			}
		})
	}
	if inst, err := Instruction(Config{InstanceID: "r-1", Source: "windows", Target: "linux", Host: "linux", TargetTest: []string{"go", "test"}, MaxFileBytes: 9}); err != nil ||
		!strings.Contains(inst, "make the repository's tests pass on linux without breaking\nwindows") || !strings.Contains(inst, "    go test\n") {
		t.Errorf("instruction: %v\n%s", err, inst)
	}
	for _, tc := range []struct {
		target, host string
		run          *TargetRun
		want, not    string
	}{
		{"linux", "linux", nil, "This machine is linux: you can run that command here.", "osbench-target"},
		{"windows", "linux", nil, "no command here runs the windows tests", "osbench-target"},
		{"windows", "linux", &TargetRun{Executor: "wine"}, "`osbench-target test` (on your PATH) runs the task's build and that command on\nwindows (through the wine executor)", "no command here"},
	} {
		inst, err := Instruction(Config{InstanceID: "r-1", Source: "linux", Target: tc.target, Host: tc.host, TargetTest: []string{"go", "test"}, MaxFileBytes: 9, TargetRun: tc.run})
		if err != nil || !strings.Contains(inst, tc.want) || strings.Contains(inst, tc.not) {
			t.Errorf("instruction for %s on %s: %v: want %q, not %q:\n%s", tc.target, tc.host, err, tc.want, tc.not, inst)
		}
	}

	// A second build runs nothing: every solve is a hit.
	rep2, err := engine.New(c, engine.Options{Jobs: 2, KeepGoing: true}).Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep2.Steps {
		if s.Status != engine.StatusHit {
			t.Errorf("second build: %s %s", s.ID, s.Status)
		}
	}
}

// httpServer answers "NAME PATH" on the host's loopback; it returns its
// host:port.
func httpServer(t *testing.T, name string) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s %s", name, r.URL.Path)
	}))
	t.Cleanup(s.Close)
	return strings.TrimPrefix(s.URL, "http://")
}

// checkApplies applies patch with git apply to a fresh copy of the task and
// checks the files of after ("-> X" a link to X, "x " an executable file).
func checkApplies(t *testing.T, patch []byte, after map[string]string) {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, taskFiles)
	if len(patch) > 0 {
		cmd := exec.Command("git", "apply", "--binary", "-")
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(string(patch))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git apply: %v: %s\n%s", err, out, patch)
		}
	}
	for name, want := range after {
		p := filepath.Join(dir, filepath.FromSlash(name))
		info, err := os.Lstat(p)
		switch {
		case want == "":
			if err == nil {
				t.Errorf("%s exists, want it absent", name)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", name, err)
			continue
		}
		var got string
		if info.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			got = "-> " + target
		} else {
			b, _ := os.ReadFile(p)
			got = string(b)
			if info.Mode()&0o100 != 0 && !strings.HasSuffix(name, ".sh") {
				got = "x " + got
			}
		}
		if got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}
