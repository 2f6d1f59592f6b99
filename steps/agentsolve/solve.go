// Package agentsolve is the "solve" step kind (docs/agents.md): it runs a
// declared command-line agent in a copy of a task's masked repository and
// takes the agent's patch itself, by diffing what the agent left against
// the masked tree. One step is one (task, agent, attempt): its key holds
// the task's digest, the whole agent declaration (its files by content),
// the instruction template's version and the attempt number, so a second
// solve runs nothing and an interrupted one resumes where it stopped.
//
// The agent's own exit status does not decide anything: an agent that
// crashed or ran out of time still leaves a workspace, and its patch is
// what the evaluation judges. Only trouble with osbench's own tools (the
// executor, git, the cache) is an error.
package agentsolve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/egress"
	"github.com/osbench/osbench/plugins/executors"
	_ "github.com/osbench/osbench/plugins/lang/all" // test files are known by language
	"github.com/osbench/osbench/plugins/redact"
	"github.com/osbench/osbench/plugins/toolenv"
)

// Kind is the step kind's name.
const Kind = "solve"

// InputSource is the input holding the task's masked repository, a tree
// result named "source" (the task's checkout step).
const InputSource = "source"

// The step's results, and its side artifacts (`osbench logs` shows them).
const (
	OutputPatch  = "patch.diff"
	OutputResult = "solve.json"
	SideStdout   = "agent-stdout.log"
	SideStderr   = "agent-stderr.log"
)

// LocalFilePrefix prefixes the Local entries giving the host path of each
// agent file (Config.Agent.Files names them by base name and digest).
const LocalFilePrefix = "agent-file:"

// DefaultMaxFileBytes is the size above which a file the agent wrote is
// refused rather than put in the patch.
const DefaultMaxFileBytes = 1 << 20

// The environment variables of the agent contract (docs/agents.md).
const (
	EnvInstruction = "OSBENCH_INSTRUCTION" // path of the instruction file
	EnvTaskID      = "OSBENCH_TASK_ID"
	EnvTarget      = "OSBENCH_TARGET" // linux | windows | darwin
	EnvSource      = "OSBENCH_SOURCE"
	EnvAttempt     = "OSBENCH_ATTEMPT"
	EnvWorkspace   = "OSBENCH_WORKSPACE" // also the working directory
	EnvAgentDir    = "OSBENCH_AGENT_DIR" // the agent's declared files, first on PATH
	EnvMaxSteps    = "OSBENCH_MAX_STEPS" // only when budget.steps is set
)

// Agent is the declaration as it enters the key. Secret variables enter by
// name only; Files by base name and content digest.
type Agent struct {
	Name      string            `json:"name"`
	Command   []string          `json:"command"`
	Env       map[string]string `json:"env"`
	SecretEnv []string          `json:"secret_env"`
	Wall      string            `json:"wall"`
	Steps     int               `json:"steps"`
	Cost      float64           `json:"cost,omitempty"` // USD
	Allow     []string          `json:"allow"`
	Files     map[string]string `json:"files"` // base name → "sha256:<hex>"
}

// Config is the solve step's configuration.
type Config struct {
	InstanceID         string   `json:"instance_id"`
	TaskDigest         string   `json:"task_digest"`
	ProblemStatement   string   `json:"problem_statement"`
	Language           string   `json:"language"`
	Source             string   `json:"source"`
	Target             string   `json:"target"`
	TargetTest         []string `json:"target_test"`
	Host               string   `json:"host"` // the platform the agent runs on
	Agent              Agent    `json:"agent"`
	InstructionVersion string   `json:"instruction_version"`
	Attempt            int      `json:"attempt"`
	Executor           string   `json:"executor"`
	MaxFileBytes       int64    `json:"max_file_bytes"`
	// TargetRun is how osbench-target runs the target's tests here
	// (target.go); nil when this host cannot run them.
	TargetRun *TargetRun `json:"target_run,omitempty"`
}

// Result is solve.json.
type Result struct {
	InstanceID string `json:"instance_id"`
	Agent      string `json:"agent"`
	Attempt    int    `json:"attempt"`
	ExitCode   int    `json:"exit_code"`
	TimedOut   bool   `json:"timed_out"`
	Seconds    int64  `json:"seconds"`
	// Files are the paths the patch changes (renames by their new path).
	Files []string `json:"files"`
	// DroppedTestFiles are test files the agent changed, added or deleted:
	// left out of the patch.
	DroppedTestFiles []string `json:"dropped_test_files"`
	// Refused are other changes left out, each with why.
	Refused     []Refusal `json:"refused"`
	PatchDigest string    `json:"patch_digest"`
	// ModelCalls are the model calls osbench's proxy passed on (plain HTTP
	// only: budget.go); Usage is the agent's last report of its own.
	ModelCalls int    `json:"model_calls"`
	Usage      *Usage `json:"usage,omitempty"`
	// BudgetExceeded says which budget the attempt went over, "budget
	// exceeded: steps 101 > 100"; osbench ended the agent then.
	BudgetExceeded string `json:"budget_exceeded,omitempty"`
}

// Refusal is one path left out of the patch.
type Refusal struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

type kind struct{}

func init() { engine.RegisterKind(kind{}) }

func (kind) Name() string { return Kind }

// Version 2: the agent reaches network.allow through osbench's proxy.
// Version 3: budget.steps and budget.cost are enforced (budget.go), and
// solve.json has model_calls, usage and budget_exceeded.
func (kind) Version() string { return "3" }

func (kind) Run(ctx context.Context, rc *engine.RunContext) error {
	var cfg Config
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	wall, err := time.ParseDuration(cfg.Agent.Wall)
	if err != nil || wall <= 0 {
		return fmt.Errorf("agent %s: wall budget %q: want a positive duration", cfg.Agent.Name, cfg.Agent.Wall)
	}
	if cfg.Agent.Steps < 0 || cfg.Agent.Cost < 0 {
		return fmt.Errorf("agent %s: budget steps %d, cost %g: want no negative budget", cfg.Agent.Name, cfg.Agent.Steps, cfg.Agent.Cost)
	}
	if cfg.MaxFileBytes <= 0 {
		return fmt.Errorf("max_file_bytes %d: want a positive size", cfg.MaxFileBytes)
	}
	src, err := rc.Input(InputSource)
	if err != nil {
		return err
	}
	workspace := filepath.Join(rc.WorkDir, "workspace")
	if err := src.Materialize("source", workspace); err != nil {
		return err
	}
	if err := initWorkspace(ctx, workspace); err != nil {
		return err
	}
	agentDir := filepath.Join(rc.WorkDir, "agent")
	if err := copyAgentFiles(cfg.Agent.Files, rc.Step.Local, agentDir); err != nil {
		return err
	}
	text, err := Instruction(cfg)
	if err != nil {
		return fmt.Errorf("instruction: %w", err)
	}
	instruction := filepath.Join(rc.WorkDir, "instruction.md")
	if err := os.WriteFile(instruction, []byte(text), 0o644); err != nil {
		return err
	}

	// The agent's own files come first on PATH: command = ["agent.sh"]
	// runs the declared script wherever the workspace is.
	env := prependPath(toolenv.Merge(toolenv.BaseEnv(), cfg.Agent.Env), agentDir)
	secrets := map[string]string{}
	for _, name := range cfg.Agent.SecretEnv {
		v, ok := os.LookupEnv(name)
		if !ok {
			return fmt.Errorf("agent %s: secret_env %s is not set in osbench's environment", cfg.Agent.Name, name)
		}
		env = append(env, name+"="+v)
		secrets[name] = v
	}
	// The values never reach what the step keeps: every log and artifact
	// of the agent is redacted as it is written.
	redactor, err := redact.New(secrets)
	if err != nil {
		return fmt.Errorf("agent %s: secret_env: %w", cfg.Agent.Name, err)
	}
	side := func(name string) (io.WriteCloser, error) {
		w, err := rc.SideWriter(name)
		if err != nil {
			return nil, err
		}
		return redactor.Wrap(w), nil
	}
	artifacts, err := artifactsDir(rc.WorkDir)
	if err != nil {
		return err
	}
	env = append(env, EnvArtifacts+"="+artifacts,
		EnvInstruction+"="+instruction, EnvTaskID+"="+cfg.InstanceID,
		EnvTarget+"="+cfg.Target, EnvSource+"="+cfg.Source,
		EnvAttempt+"="+strconv.Itoa(cfg.Attempt), EnvWorkspace+"="+workspace, EnvAgentDir+"="+agentDir)
	if cfg.Agent.Steps > 0 {
		env = append(env, EnvMaxSteps+"="+strconv.Itoa(cfg.Agent.Steps))
	}
	// Over a budget the guard cancels agentCtx: the executor kills the
	// agent's processes as at the wall budget, and the attempt goes on to
	// its patch.
	agentCtx, endAgent := context.WithCancel(ctx)
	defer endAgent()
	budget, err := newGuard(rc.WorkDir, cfg.Agent.Steps, cfg.Agent.Cost, endAgent)
	if err != nil {
		return err
	}
	env = setEnv(env, budget.env())

	ex, err := toolenv.Executor(rc.StateDir, cfg.Executor)
	if err != nil {
		return err
	}
	stdout, err := side(SideStdout)
	if err != nil {
		return err
	}
	stderr, err := side(SideStderr)
	if err != nil {
		stdout.Close()
		return err
	}
	egressLog, err := side(SideEgress)
	if err != nil {
		stdout.Close()
		stderr.Close()
		return err
	}
	// Network stays off: where the executor isolates, the agent's one way
	// out is the proxy to network.allow (network.go).
	var (
		ports []executors.LoopbackPort
		proxy *egress.Proxy
	)
	closeAll := func(ws ...io.Closer) {
		for _, w := range ws {
			w.Close()
		}
	}
	if isolated() {
		var proxyEnv map[string]string
		if proxy, ports, proxyEnv, err = agentNetwork(cfg.Agent.Allow, egressLog); err != nil {
			closeAll(stdout, stderr, egressLog)
			return fmt.Errorf("agent %s: %w", cfg.Agent.Name, err)
		}
		proxy.LimitModelCalls(cfg.Agent.Steps, budget.modelCall)
		env = setEnv(env, proxyEnv)
	}
	// The target platform in reach (target.go): osbench-target first on
	// PATH, served from outside the agent's sandbox.
	var (
		target    *targetRunner
		targetLog io.WriteCloser
	)
	if cfg.TargetRun != nil {
		if targetLog, err = side(SideTarget); err != nil {
			closeAll(stdout, stderr, egressLog)
			return err
		}
		target = newTargetRunner(ctx, cfg, workspace, filepath.Dir(rc.WorkDir), toolenv.StateDir(rc.StateDir), targetLog)
		bin := filepath.Join(rc.WorkDir, "bin")
		if err := target.install(bin); err != nil {
			closeAll(stdout, stderr, egressLog, targetLog)
			return err
		}
		addr := ""
		if isolated() {
			port := targetPort
			for slices.ContainsFunc(ports, func(p executors.LoopbackPort) bool { return p.Port == port }) {
				port++
			}
			ports = append(ports, executors.LoopbackPort{Port: port, Serve: target.serve})
			addr = fmt.Sprintf("127.0.0.1:%d", port)
		} else {
			var stopListen func()
			if addr, stopListen, err = target.listen(); err != nil {
				closeAll(stdout, stderr, egressLog, targetLog)
				return err
			}
			defer stopListen()
		}
		env = prependPath(setEnv(env, map[string]string{EnvTargetAddr: addr}), bin)
	}
	stopWatch := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		budget.watch(stopWatch)
	}()
	res, runErr := ex.Run(agentCtx, executors.Cmd{
		Argv: cfg.Agent.Command, Dir: workspace, Env: env,
		Stdout: stdout, Stderr: stderr, Timeout: wall,
		WorkDir: rc.WorkDir, Network: false, LoopbackPorts: ports,
	})
	close(stopWatch)
	<-watched
	// The last lines the agent wrote before it ended count too.
	budget.finish()
	if runErr != nil && ctx.Err() == nil && budget.Exceeded() != "" && errors.Is(runErr, context.Canceled) {
		// Ended by osbench for its budget: an outcome, not a failure.
		runErr, res.ExitCode = nil, -1
	}
	modelCalls := 0
	if proxy != nil {
		proxy.Stop()
		modelCalls = proxy.ModelCalls()
	}
	closers := []io.Closer{stderr, egressLog}
	if target != nil {
		// Every process of the agent is gone; a target run it started
		// ends now, before the workspace is read.
		target.stop()
		closers = append(closers, targetLog)
	}
	cerr := stdout.Close()
	for _, w := range closers {
		if err := w.Close(); cerr == nil {
			cerr = err
		}
	}
	if runErr != nil {
		return fmt.Errorf("agent %s: %w", cfg.Agent.Name, runErr)
	}
	if cerr != nil {
		return cerr
	}
	if err := keepArtifacts(side, artifacts); err != nil {
		return err
	}
	if info, err := os.Lstat(budget.path); err == nil && info.Mode().IsRegular() && info.Size() > 0 {
		if err := keepArtifact(side, budget.path, SideUsage); err != nil {
			return err
		}
	}

	// Every process of the agent has ended (the executor kills the tree);
	// the diff is made in a directory the agent never saw, from the masked
	// tree in the cache, not from anything in the workspace but its files.
	scratch, err := os.MkdirTemp("", "osbench-solve-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	patch, d, err := diffWorkspace(ctx, src, workspace, scratch, cfg.MaxFileBytes)
	if err != nil {
		return fmt.Errorf("taking the agent's patch: %w", err)
	}
	sum := sha256.Sum256(patch)
	result := Result{
		InstanceID: cfg.InstanceID, Agent: cfg.Agent.Name, Attempt: cfg.Attempt,
		ExitCode: res.ExitCode, TimedOut: res.TimedOut, Seconds: int64(res.Duration / time.Second),
		Files: d.files, DroppedTestFiles: d.droppedTests, Refused: d.refused,
		PatchDigest: "sha256:" + hex.EncodeToString(sum[:]),
		ModelCalls:  modelCalls, Usage: budget.Usage(), BudgetExceeded: budget.Exceeded(),
	}
	if err := rc.PutBytes(OutputPatch, patch); err != nil {
		return err
	}
	rc.SetLabel(label(result))
	// Not rc.PutJSON: solve.json is read by people (solves.jsonl), and
	// "steps 101 > 100" should not read "steps 101 \u003e 100".
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(result); err != nil {
		return err
	}
	return rc.PutBytes(OutputResult, out.Bytes())
}

// prependPath puts dir first on env's PATH.
func prependPath(env []string, dir string) []string {
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + dir + string(filepath.ListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
	}
	return env
}

func label(r Result) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d files", len(r.Files))
	if n := len(r.DroppedTestFiles); n > 0 {
		fmt.Fprintf(&b, ", %d test files dropped", n)
	}
	if n := len(r.Refused); n > 0 {
		fmt.Fprintf(&b, ", %d refused", n)
	}
	switch {
	case r.BudgetExceeded != "":
		b.WriteString(", " + r.BudgetExceeded)
	case r.TimedOut:
		b.WriteString(", out of time")
	case r.ExitCode != 0:
		fmt.Fprintf(&b, ", agent exit %d", r.ExitCode)
	}
	return b.String()
}

// copyAgentFiles copies the declared files (base name → digest; the host
// path in local) into dir, checking each against its digest: the file
// changed since the key was computed would make the key lie.
func copyAgentFiles(files map[string]string, local map[string]string, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		p, ok := local[LocalFilePrefix+name]
		if !ok {
			return fmt.Errorf("agent file %s: no host path given", name)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("agent file: %w", err)
		}
		if d := FileDigest(b); d != files[name] {
			return fmt.Errorf("agent file %s changed since the plan (%s, key has %s)", p, d, files[name])
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// FileDigest is how an agent file enters the key.
func FileDigest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}
