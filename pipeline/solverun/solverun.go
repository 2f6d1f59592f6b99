// Package solverun is `osbench solve`: it runs one declared agent on every
// task of a tasks.jsonl, attempts times each, as steps of the engine (the
// solve kind, steps/agentsolve), and writes the agents' patches as
// SWE-bench predictions that `osbench eval --predictions` takes as they
// are. Each (task, agent, attempt) is one cached step: a second solve runs
// nothing, and an interrupted one resumes.
package solverun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/pipeline/evalreport"
	"github.com/osbench/osbench/pipeline/predictions"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/agentsolve"
	"github.com/osbench/osbench/steps/checkout"
)

// PredictionsFile is the name of the predictions solve writes into OUT.
const PredictionsFile = "predictions.jsonl"

// SolvesFile lists every attempt's solve.json (dropped test files,
// refusals, exit status) beside the predictions.
const SolvesFile = "solves.jsonl"

// Options say which agent solves which tasks.
type Options struct {
	Agent    *manifests.Agent
	Where    string // the agent's declaration, file:line, for explain
	Tasks    string
	Attempts int
	Out      string
	Cache    *cache.Cache
	// Executor runs the agent ("local"); ExecutorState is where it keeps
	// its state (the same as the build's).
	Executor      string
	ExecutorState func(name string) (string, error)
	MaxFileBytes  int64
	// Engine gives the engine options of the build, told how many steps
	// it has; done is called when it ends.
	Engine func(steps int) (opts engine.Options, done func())
}

// Result is what a solve did.
type Result struct {
	Problems    []predictions.Problem
	Predictions int
	// Failed lists the attempts whose step failed (an infrastructure
	// failure: rerun solve to retry them), with why.
	Failed []string
	Steps  engine.Summary
	Spent  Spent
}

// Spent sums the attempts' budgets (solve.json): what osbench counted and
// what the agents reported.
type Spent struct {
	Attempts int
	// ModelCalls are the model calls osbench's proxy counted.
	ModelCalls int
	// Reported is the number of attempts that reported usage; CostUSD
	// and ReportedSteps are their sums.
	Reported      int
	CostUSD       float64
	ReportedSteps int
	// OverBudget lists the attempts osbench ended over a budget.
	OverBudget []string
}

// add counts one attempt's solve.json.
func (s *Spent) add(id string, r agentsolve.Result) {
	s.Attempts++
	s.ModelCalls += r.ModelCalls
	if r.Usage != nil {
		s.Reported++
		s.CostUSD += r.Usage.CostUSD
		s.ReportedSteps += r.Usage.Steps
	}
	if r.BudgetExceeded != "" {
		s.OverBudget = append(s.OverBudget, id+": "+r.BudgetExceeded)
	}
}

// Line is the one-line summary `osbench solve` prints.
func (s Spent) Line() string {
	line := fmt.Sprintf("%d model calls counted by the proxy", s.ModelCalls)
	if s.Reported > 0 {
		line += fmt.Sprintf("; %d attempts reported %d steps, %s USD", s.Reported, s.ReportedSteps, strconv.FormatFloat(s.CostUSD, 'f', -1, 64))
	}
	return line + fmt.Sprintf("; %d of %d attempts over budget", len(s.OverBudget), s.Attempts)
}

// Model is the model_name_or_path of an agent's attempt.
func Model(agent string, attempt int) string {
	return agent + schemas.AttemptSuffix + strconv.Itoa(attempt)
}

// StepID is the solve step of one attempt.
func StepID(agent, instance string, attempt int) string {
	return "solve/" + agent + "/" + instance + "/attempt-" + strconv.Itoa(attempt)
}

// The task's checkout is the same step as evaluation's (pipeline/compile):
// one ID and key for one tree.
func checkoutID(instance string) string { return "task/" + instance + "/checkout" }

// Run solves and writes OUT/predictions.jsonl and OUT/solves.jsonl.
func Run(ctx context.Context, opts Options) (*Result, error) {
	if opts.Attempts < 1 {
		return nil, fmt.Errorf("solve: %d attempts; want at least 1", opts.Attempts)
	}
	tasks, problems, err := predictions.ReadTasks(opts.Tasks)
	if err != nil {
		return nil, err
	}
	res := &Result{Problems: problems}
	agent, err := agentConfig(opts.Agent)
	if err != nil {
		return nil, err
	}
	dir, err := opts.ExecutorState(opts.Executor)
	if err != nil {
		return nil, err
	}
	ex, err := executors.New(opts.Executor, executors.Config{StateDir: dir})
	if err != nil {
		return nil, err
	}
	fingerprint, err := ex.Fingerprint(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("executor %s: %w", opts.Executor, err)
	}
	local := map[string]string{}
	for _, f := range opts.Agent.Files {
		local[agentsolve.LocalFilePrefix+filepath.Base(f)] = f
	}

	targets := targetRuns{ctx: ctx, state: opts.ExecutorState, prints: map[string]string{}}
	var steps []*engine.Step
	for i := range tasks {
		t := &tasks[i]
		tree, err := checkout.HashLocal(t.RepoDir)
		if err != nil {
			return nil, fmt.Errorf("%s: task repository: %v", t.Where, err)
		}
		steps = append(steps, &engine.Step{
			ID: checkoutID(t.InstanceID), Kind: checkout.Kind, Group: t.InstanceID,
			Config: engine.Fields(checkout.Config{Tree: tree}, func(string) string { return t.Where }),
			Local:  map[string]string{checkout.LocalPath: t.RepoDir},
		})
		env, ok := t.Environment[t.TargetOS]
		if !ok {
			return nil, fmt.Errorf("%s: no environment for the target %s", t.Where, t.TargetOS)
		}
		for k := 1; k <= opts.Attempts; k++ {
			cfg := agentsolve.Config{
				InstanceID: t.InstanceID, TaskDigest: t.Digest, ProblemStatement: t.ProblemStatement,
				Language: t.Language, Source: t.SourceOS, Target: t.TargetOS, TargetTest: nonNil(env.TestCommand),
				Host: runtime.GOOS, Agent: agent, InstructionVersion: agentsolve.InstructionVersion, Attempt: k,
				Executor: opts.Executor, MaxFileBytes: opts.MaxFileBytes,
				TargetRun: targets.For(t.TargetOS, env),
			}
			steps = append(steps, &engine.Step{
				ID: StepID(opts.Agent.Name, t.InstanceID, k), Kind: agentsolve.Kind, Group: t.InstanceID,
				Config: engine.Fields(cfg, func(name string) string {
					if name == "agent" {
						return opts.Where
					}
					return t.Where
				}),
				Inputs: []engine.Input{{Name: agentsolve.InputSource, Step: checkoutID(t.InstanceID)}},
				Env:    map[string]string{"platform": runtime.GOOS, "executor": fingerprint},
				Pool:   "local",
				Local:  local,
			})
		}
	}
	g, err := engine.NewGraph(steps)
	if err != nil {
		return nil, err
	}
	eo, done := opts.Engine(g.Len())
	eo.KeepGoing = true
	rep, err := engine.New(opts.Cache, eo).Build(ctx, g)
	done()
	if rep == nil || errors.Is(err, context.Canceled) {
		if err == nil {
			err = errors.New("build returned no report")
		}
		return nil, err
	}
	res.Steps = rep.Summary()

	var preds, solves bytes.Buffer
	reader := engine.New(opts.Cache, engine.Options{Jobs: 1})
	for i := range tasks {
		t := &tasks[i]
		for k := 1; k <= opts.Attempts; k++ {
			r := rep.Step(StepID(opts.Agent.Name, t.InstanceID, k))
			if r == nil || (r.Status != engine.StatusHit && r.Status != engine.StatusRan) {
				res.Failed = append(res.Failed, failure(r, StepID(opts.Agent.Name, t.InstanceID, k)))
				continue
			}
			a, err := reader.Artifacts(r)
			if err != nil {
				return nil, err
			}
			patch, err := a.Bytes(agentsolve.OutputPatch)
			if err != nil {
				return nil, err
			}
			solve, err := a.Bytes(agentsolve.OutputResult)
			if err != nil {
				return nil, err
			}
			var sr agentsolve.Result
			if err := json.Unmarshal(solve, &sr); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", StepID(opts.Agent.Name, t.InstanceID, k), agentsolve.OutputResult, err)
			}
			res.Spent.add(Model(opts.Agent.Name, k)+" "+t.InstanceID, sr)
			line, err := json.Marshal(struct {
				InstanceID string `json:"instance_id"`
				Model      string `json:"model_name_or_path"`
				Patch      string `json:"model_patch"`
			}{t.InstanceID, Model(opts.Agent.Name, k), string(patch)})
			if err != nil {
				return nil, err
			}
			preds.Write(append(line, '\n'))
			solves.Write(bytes.TrimRight(solve, "\n"))
			solves.WriteByte('\n')
			res.Predictions++
		}
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return nil, err
	}
	if err := evalreport.WriteFile(filepath.Join(opts.Out, PredictionsFile), preds.Bytes()); err != nil {
		return nil, err
	}
	if err := evalreport.WriteFile(filepath.Join(opts.Out, SolvesFile), solves.Bytes()); err != nil {
		return nil, err
	}
	return res, nil
}

func failure(r *engine.StepResult, id string) string {
	switch {
	case r == nil:
		return id + ": not run"
	case r.Error != "":
		return id + ": " + r.Error
	case r.Reason != "":
		return fmt.Sprintf("%s %s: %s", id, r.Status, r.Reason)
	}
	return fmt.Sprintf("%s %s", id, r.Status)
}

// agentConfig is the declaration as it enters the key: files by content.
func agentConfig(a *manifests.Agent) (agentsolve.Agent, error) {
	c := agentsolve.Agent{
		Name: a.Name, Command: a.Command, Env: a.Env, SecretEnv: nonNil(a.SecretEnv),
		Wall: a.Wall.String(), Steps: a.Steps, Cost: a.Cost, Allow: nonNil(a.Allow), Files: map[string]string{},
	}
	if c.Env == nil {
		c.Env = map[string]string{}
	}
	for _, f := range a.Files {
		b, err := os.ReadFile(f)
		if err != nil {
			return c, fmt.Errorf("agent %s: %w", a.Name, err)
		}
		c.Files[filepath.Base(f)] = agentsolve.FileDigest(b)
	}
	return c, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
