package solverun

import (
	"context"
	"runtime"

	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/agentsolve"
)

// targetRuns decides, per task, whether the agent gets osbench-target
// (agentsolve.TargetRun): when this host runs the target's tests through
// the task's own executor — natively, or a Windows target through Wine on
// Linux — and they need no secrets (osbench-target prints what they print
// to the agent). Each executor's fingerprint is asked once.
type targetRuns struct {
	ctx    context.Context
	state  func(name string) (string, error)
	prints map[string]string // executor → fingerprint, "" when it cannot run here
}

// For is the TargetRun of a task whose target is target with environment
// env, nil when the agent cannot have one.
func (r *targetRuns) For(target string, env schemas.TestEnvironment) *agentsolve.TargetRun {
	native := env.Executor == executors.LocalName && target == runtime.GOOS
	wine := env.Executor == executors.WineName && target == "windows" && runtime.GOOS == "linux"
	if (!native && !wine) || len(env.SecretEnv) > 0 || len(env.TestCommand) == 0 {
		return nil
	}
	fp := r.fingerprint(env.Executor, env.User)
	if fp == "" {
		return nil
	}
	run := &agentsolve.TargetRun{
		Executor: env.Executor, Fingerprint: fp, Toolchain: env.Toolchain, Env: env.Env, User: env.User,
		Test:    schemas.Command{Argv: env.TestCommand, Shell: env.Shell, Dir: env.Dir},
		Timeout: env.Timeout,
	}
	if env.Build != nil {
		b := *env.Build
		run.Build = &b
	}
	if run.Env == nil {
		run.Env = map[string]string{}
	}
	return run
}

func (r *targetRuns) fingerprint(name, user string) string {
	key := name + "\x00" + user
	if fp, ok := r.prints[key]; ok {
		return fp
	}
	fp := ""
	if dir, err := r.state(name); err == nil {
		if ex, err := executors.New(name, executors.Config{StateDir: dir}); err == nil {
			if p, err := ex.Fingerprint(r.ctx, user); err == nil {
				fp = p
			}
		}
	}
	r.prints[key] = fp
	return fp
}
