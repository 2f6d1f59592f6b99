package agentsolve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// Budgets past wall time (docs/agents.md, "Budgets"). osbench ends an
// attempt that goes over budget.steps or budget.cost, from two sources:
//
//   - model calls its proxy counts itself (plugins/egress: POSTs to an
//     allowed endpoint over plain HTTP), which the agent cannot
//     understate; inside TLS the proxy sees no requests;
//   - the usage the agent reports, JSON lines appended to the file
//     $OSBENCH_USAGE names: {"steps": N, "cost_usd": X}, each line the
//     running total so far. osbench cannot price tokens, so cost is only
//     ever what the agent says.
//
// Over either, the agent's processes are killed (as at the wall budget),
// and the attempt is kept: its patch is taken and predicted like any
// other, since SWE-bench grades what an agent left.

// The usage channel's variables.
const (
	EnvUsage   = "OSBENCH_USAGE"    // the file the agent appends usage lines to
	EnvMaxCost = "OSBENCH_MAX_COST" // budget.cost in USD, when set
)

// SideUsage is the usage file as the agent wrote it, kept as a side
// artifact.
const SideUsage = "usage.jsonl"

// usagePoll is how often the usage file is read while the agent runs: an
// agent over its cost is ended within about this long.
const usagePoll = 500 * time.Millisecond

// maxUsageLine bounds one line of the usage file; a longer one is bad.
const maxUsageLine = 64 << 10

// Usage is what the agent last reported, running totals.
type Usage struct {
	Steps        int     `json:"steps,omitempty"`
	CostUSD      float64 `json:"cost_usd,omitempty"`
	InputTokens  int64   `json:"input_tokens,omitempty"`
	OutputTokens int64   `json:"output_tokens,omitempty"`
	// BadLines counts lines that were not a usage object (ignored).
	BadLines int `json:"bad_lines,omitempty"`
}

// guard watches an attempt's budgets and ends the agent (cancel) the first
// time one is exceeded.
type guard struct {
	steps  int
	cost   float64
	cancel context.CancelFunc
	path   string

	mu       sync.Mutex
	exceeded string
	usage    *Usage
	offset   int64
	partial  []byte
}

// newGuard creates the usage file, empty and writable by the agent's uid
// (the step's work dir is private to the step), and the guard watching it.
func newGuard(workDir string, steps int, cost float64, cancel context.CancelFunc) (*guard, error) {
	path := filepath.Join(workDir, "usage.jsonl")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o666)
	if err != nil {
		return nil, fmt.Errorf("usage file: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o666); err != nil {
		return nil, err
	}
	return &guard{steps: steps, cost: cost, cancel: cancel, path: path}, nil
}

// env is the agent's part of the usage channel.
func (g *guard) env() map[string]string {
	e := map[string]string{EnvUsage: g.path}
	if g.cost > 0 {
		e[EnvMaxCost] = strconv.FormatFloat(g.cost, 'f', -1, 64)
	}
	return e
}

// exceed records the first budget exceeded and ends the agent.
func (g *guard) exceed(what string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.exceeded == "" {
		g.exceeded = "budget exceeded: " + what
		g.cancel()
	}
}

// modelCall is the proxy's word that model call n is over budget.steps.
func (g *guard) modelCall(n int) {
	g.exceed(fmt.Sprintf("steps %d > %d", n, g.steps))
}

// Exceeded is the budget the attempt went over ("" for none).
func (g *guard) Exceeded() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.exceeded
}

// Usage is the last usage reported (nil for none).
func (g *guard) Usage() *Usage {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.usage == nil {
		return nil
	}
	u := *g.usage
	return &u
}

// watch reads the usage file every usagePoll until stop is closed.
func (g *guard) watch(stop <-chan struct{}) {
	t := time.NewTicker(usagePoll)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			g.read()
		}
	}
}

// read takes the lines appended since the last read and checks the
// budgets against the last good one. A file the agent replaced by
// something else than a regular file is read no more.
func (g *guard) read() {
	f, err := os.OpenFile(g.path, os.O_RDONLY|oNoFollow|oNonBlock, 0)
	if err != nil {
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if info.Size() < g.offset {
		// Truncated and rewritten: read it from the start again (the
		// lines are totals, so nothing is counted twice).
		g.offset, g.partial = 0, nil
	}
	if _, err := f.Seek(g.offset, io.SeekStart); err != nil {
		return
	}
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return
	}
	g.offset += int64(len(b))
	b = append(g.partial, b...)
	for {
		line, rest, ok := bytes.Cut(b, []byte("\n"))
		if !ok {
			break
		}
		g.line(line)
		b = rest
	}
	if len(b) > maxUsageLine {
		g.bad()
		b = nil
	}
	g.partial = append([]byte(nil), b...)
	g.check()
}

// finish reads the file a last time once the agent has ended: a last
// line without its newline counts too.
func (g *guard) finish() {
	g.read()
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.partial) > 0 {
		g.line(g.partial)
		g.partial = nil
		g.check()
	}
}

func (g *guard) bad() {
	if g.usage == nil {
		g.usage = &Usage{}
	}
	g.usage.BadLines++
}

// line takes one usage line; g.mu is held.
func (g *guard) line(line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	// One object of the documented fields; others are ignored.
	var r struct {
		Steps        int     `json:"steps"`
		CostUSD      float64 `json:"cost_usd"`
		InputTokens  int64   `json:"input_tokens"`
		OutputTokens int64   `json:"output_tokens"`
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&r); err != nil || dec.More() || r.Steps < 0 || r.CostUSD < 0 || r.InputTokens < 0 || r.OutputTokens < 0 {
		g.bad()
		return
	}
	u := Usage{Steps: r.Steps, CostUSD: r.CostUSD, InputTokens: r.InputTokens, OutputTokens: r.OutputTokens}
	if g.usage != nil {
		u.BadLines = g.usage.BadLines
	}
	g.usage = &u
}

// check compares the last report with the budgets; g.mu is held.
func (g *guard) check() {
	if g.usage == nil || g.exceeded != "" {
		return
	}
	switch {
	case g.steps > 0 && g.usage.Steps > g.steps:
		g.exceeded = fmt.Sprintf("budget exceeded: steps %d > %d (reported)", g.usage.Steps, g.steps)
	case g.cost > 0 && g.usage.CostUSD > g.cost:
		g.exceeded = fmt.Sprintf("budget exceeded: cost %s > %s USD (reported)",
			strconv.FormatFloat(g.usage.CostUSD, 'f', -1, 64), strconv.FormatFloat(g.cost, 'f', -1, 64))
	default:
		return
	}
	g.cancel()
}
