package temporal

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/toolprobe"
)

// A step's queue is named by its platform and the fingerprint of the
// environment it was keyed for: every fact of the step's Env but the
// platform (the executor's fingerprint — OS, architecture, privilege mode,
// Wine version, shim — and, on toolchain steps, the installed tools'
// versions). The client computed those on its own machine and put them in
// the key; a worker polls only the queues of the facts it computes on its
// own, so a step reaches only a worker that would key it the same way. A
// fact a worker does not know (a future Env entry) routes to a queue no
// worker serves, which the client reports: never a step run under facts
// its key does not describe.

// Fingerprint is the text a queue is named after: the step's Env without
// its platform, one "name=value" line per fact, sorted.
func Fingerprint(env map[string]string) string {
	names := make([]string, 0, len(env))
	for name := range env {
		if name != "platform" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		fmt.Fprintf(&b, "%s=%s\n", name, env[name])
	}
	return b.String()
}

// Queue is the task queue of a platform and a fingerprint.
func Queue(platform, fingerprint string) string {
	h := sha256.Sum256([]byte(fingerprint))
	return "osbench-" + platform + "-" + hex.EncodeToString(h[:6])
}

// QueueOf is the queue step s goes to.
func QueueOf(s *engine.Step) string {
	return Queue(s.Env["platform"], Fingerprint(s.Env))
}

// directoryQueue is where every worker of a platform answers "what do you
// serve?", so a client whose step has no worker can say what differs.
func directoryQueue(platform string) string {
	return "osbench-" + platform + "-workers"
}

// executorDirectoryQueue is the directory of the workers of one platform
// and executor: where a client learns the facts to key that platform's
// steps with when it cannot compute them itself (facts.go).
func executorDirectoryQueue(platform, executor string) string {
	return directoryQueue(platform) + "-" + executor
}

// ServedQueue is one queue a worker polls, with the fingerprint it is
// named after.
type ServedQueue struct {
	Queue       string            `json:"queue"`
	Env         map[string]string `json:"env"` // the facts, without the platform
	Fingerprint string            `json:"fingerprint"`
}

// WorkerInfo is what a worker publishes on its platform's directory queue.
type WorkerInfo struct {
	Identity string        `json:"identity"`
	Platform string        `json:"platform"`
	Executor string        `json:"executor"`
	Queues   []ServedQueue `json:"queues"`
	// Facts are the facts its queues are named after, by run user ("" is
	// the default user): what a client that cannot compute them itself (a
	// Linux client keying steps for real Windows workers) keys the
	// platform's steps with, so they reach these workers (facts.go).
	Facts map[string]UserFacts `json:"facts,omitempty"`
}

// UserFacts are the facts of one run user on a worker.
type UserFacts struct {
	// Executor is the executor's fingerprint (Env["executor"]).
	Executor string `json:"executor"`
	// Tools are the tools' fingerprints of the toolchain steps (Env["tools"],
	// toolprobe.KeyedTools) by language; a language without probes on the
	// platform and executor (Go) has none.
	Tools map[string]string `json:"tools,omitempty"`
}

// runUsers are the run users a manifest may ask for; each can give the
// executor another fingerprint (privilege mode).
var runUsers = []string{"", "root"}

// ServedQueues computes, on this machine, every environment a step for
// platform run with executor can have been keyed for, the way the
// compiler computes it (pipeline/compile): the executor's fingerprint per run
// user, and with it, for toolchain steps, the tools' fingerprint of each
// language whose tools are probed (toolprobe.KeyedTools, through the local
// executor like the compiler's probes).
func ServedQueues(ctx context.Context, platform, executor, stateDir string) ([]ServedQueue, error) {
	served, _, err := servedQueues(ctx, platform, executor, stateDir)
	return served, err
}

// servedQueues is ServedQueues with the facts the queues are named after.
func servedQueues(ctx context.Context, platform, executor, stateDir string) ([]ServedQueue, map[string]UserFacts, error) {
	ex, err := executors.New(executor, executors.Config{StateDir: stateDir})
	if err != nil {
		return nil, nil, err
	}
	prober := ex
	if executor != executors.LocalName {
		if prober, err = executors.New(executors.LocalName, executors.Config{StateDir: stateDir}); err != nil {
			return nil, nil, err
		}
	}
	byQueue := map[string]ServedQueue{}
	add := func(env map[string]string) {
		fp := Fingerprint(env)
		q := Queue(platform, fp)
		byQueue[q] = ServedQueue{Queue: q, Env: env, Fingerprint: fp}
	}
	facts := map[string]UserFacts{}
	for _, user := range runUsers {
		fp, err := ex.Fingerprint(ctx, user)
		if err != nil {
			return nil, nil, fmt.Errorf("executor %s: fingerprint: %w", executor, err)
		}
		add(map[string]string{"executor": fp})
		uf := UserFacts{Executor: fp, Tools: map[string]string{}}
		pr := toolprobe.NewProber(prober, user)
		for _, lang := range toolprobe.Languages(platform, executor) {
			if tools := pr.KeyedTools(ctx, lang, platform, executor); tools != "" {
				add(map[string]string{"executor": fp, "tools": tools})
				uf.Tools[lang] = tools
			}
		}
		facts[user] = uf
	}
	out := make([]ServedQueue, 0, len(byQueue))
	for _, sq := range byQueue {
		out = append(out, sq)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Queue < out[j].Queue })
	return out, facts, nil
}

// A worker's poller on its directory queue is named by the worker's
// identity and the queues it serves: "<identity>|serves=<q1>,<q2>". The
// directory is polled whenever the worker lives — a describe takes no
// time and has slots of its own, unlike the steps' queues, which a busy
// worker stops polling — so its pollers are the live workers and what
// each serves, and a client learns that a queue is served by one
// DescribeTaskQueue call.
const servesMark = "|serves="

func directoryIdentity(identity string, served []ServedQueue) string {
	names := make([]string, len(served))
	for i, sq := range served {
		names[i] = sq.Queue
	}
	return identity + servesMark + strings.Join(names, ",")
}

// parseDirectoryIdentity is the inverse; ok is false for a poller that is
// not an osbench worker's directory poller.
func parseDirectoryIdentity(id string) (identity string, queues []string, ok bool) {
	identity, list, ok := strings.Cut(id, servesMark)
	if !ok {
		return "", nil, false
	}
	if list != "" {
		queues = strings.Split(list, ",")
	}
	return identity, queues, true
}
