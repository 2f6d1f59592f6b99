package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osbench/osbench/engine/cache"
)

// Test kinds: small, real step kinds that exercise the engine's contract.

// textKind writes config "text" (upper-cased when "upper" is set) joined
// with the "text" results of its inputs. Counting runs lets tests see what
// reran.
type textKind struct{ runs atomic.Int64 }

func (k *textKind) Name() string    { return "test.text" }
func (k *textKind) Version() string { return "1" }
func (k *textKind) Run(ctx context.Context, rc *RunContext) error {
	k.runs.Add(1)
	var cfg struct {
		Text  string `json:"text"`
		Upper bool   `json:"upper"`
		Fail  bool   `json:"fail"`
	}
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	if cfg.Fail {
		return errors.New("told to fail")
	}
	out := cfg.Text
	if cfg.Upper {
		out = strings.ToUpper(out)
	}
	for _, in := range rc.Step.Inputs {
		a, err := rc.Input(in.Name)
		if err != nil {
			return err
		}
		b, err := a.Bytes("text")
		if err != nil {
			return err
		}
		out += "+" + string(b)
	}
	w, err := rc.SideWriter("log")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "ran at %s in %s\n", time.Now(), rc.WorkDir) // side: never in the output digest
	if err := w.Close(); err != nil {
		return err
	}
	rc.SetLabel(out)
	return rc.PutBytes("text", []byte(out))
}

// treeKind snapshots a directory of files named by config, and treeReader
// materializes its input tree and reports the file list.
type treeKind struct{ runs atomic.Int64 }

func (k *treeKind) Name() string    { return "test.tree" }
func (k *treeKind) Version() string { return "1" }
func (k *treeKind) Run(ctx context.Context, rc *RunContext) error {
	k.runs.Add(1)
	var cfg struct {
		Files map[string]string `json:"files"`
	}
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	dir := filepath.Join(rc.WorkDir, "t")
	for name, content := range cfg.Files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return rc.PutTree("tree", dir, nil)
}

type treeReaderKind struct{ runs atomic.Int64 }

func (k *treeReaderKind) Name() string    { return "test.treereader" }
func (k *treeReaderKind) Version() string { return "1" }
func (k *treeReaderKind) Run(ctx context.Context, rc *RunContext) error {
	k.runs.Add(1)
	a, err := rc.Input("tree")
	if err != nil {
		return err
	}
	dir := filepath.Join(rc.WorkDir, "src")
	if err := a.Materialize("tree", dir); err != nil {
		return err
	}
	var names []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			names = append(names, rel+"="+string(b))
		}
		return nil
	})
	return rc.PutBytes("text", []byte(strings.Join(names, ",")))
}

// blockKind waits until cancelled.
type blockKind struct{ started chan struct{} }

func (k *blockKind) Name() string    { return "test.block" }
func (k *blockKind) Version() string { return "1" }
func (k *blockKind) Run(ctx context.Context, rc *RunContext) error {
	close(k.started)
	<-ctx.Done()
	return ctx.Err()
}

var (
	kText       = &textKind{}
	kTree       = &treeKind{}
	kTreeReader = &treeReaderKind{}
	kBlock      = &blockKind{started: make(chan struct{})}
)

func init() {
	RegisterKind(kText)
	RegisterKind(kTree)
	RegisterKind(kTreeReader)
	RegisterKind(kBlock)
}

func text(id, group, txt string, inputs ...string) *Step {
	s := &Step{ID: id, Kind: "test.text", Group: group, Config: []Field{{Name: "text", Value: txt, Source: id + ".hcl:1,1"}},
		Env: map[string]string{"platform": "linux"}, Exports: []Export{{Output: "text", Path: id + ".txt"}}}
	for i, in := range inputs {
		s.Inputs = append(s.Inputs, Input{Name: fmt.Sprintf("in%d", i), Step: in})
	}
	return s
}

func setField(s *Step, name string, v any) {
	for i := range s.Config {
		if s.Config[i].Name == name {
			s.Config[i].Value = v
			return
		}
	}
	s.Config = append(s.Config, Field{Name: name, Value: v, Source: s.ID + ".hcl:2,1"})
}

func newEngine(t *testing.T, dir string) *Engine {
	t.Helper()
	c, err := cache.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return New(c, Options{Jobs: 2, KeepGoing: true, OutDir: filepath.Join(dir, "out")})
}

func build(t *testing.T, e *Engine, steps ...*Step) *Report {
	t.Helper()
	g, err := NewGraph(steps)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func statuses(rep *Report) map[string]Status {
	m := map[string]Status{}
	for _, s := range rep.Steps {
		m[s.ID] = s.Status
	}
	return m
}

func wantStatuses(t *testing.T, rep *Report, want map[string]Status) {
	t.Helper()
	got := statuses(rep)
	for id, w := range want {
		if got[id] != w {
			t.Errorf("step %s: status %s, want %s (reason %q, error %q)", id, got[id], w, rep.Step(id).Reason, rep.Step(id).Error)
		}
	}
}

func chain() []*Step {
	return []*Step{text("a", "g1", "a"), text("b", "g1", "b", "a"), text("c", "g1", "c", "b"), text("x", "g2", "x")}
}

func TestRebuildIsAllHits(t *testing.T) {
	e := newEngine(t, t.TempDir())
	rep := build(t, e, chain()...)
	wantStatuses(t, rep, map[string]Status{"a": StatusRan, "b": StatusRan, "c": StatusRan, "x": StatusRan})
	rep = build(t, e, chain()...)
	if s := rep.Summary(); s.Hit != 4 || s.Ran != 0 {
		t.Fatalf("second build: %+v, want 4 hits", s)
	}
	b, err := os.ReadFile(filepath.Join(e.opts.OutDir, "c.txt"))
	if err != nil || string(b) != "c+b+a" {
		t.Fatalf("export c.txt = %q, %v", b, err)
	}
}

func TestConfigEditRerunsDependentsAndExplainNamesIt(t *testing.T) {
	e := newEngine(t, t.TempDir())
	build(t, e, chain()...)
	steps := chain()
	setField(steps[1], "text", "B2")
	g, _ := NewGraph(steps)
	plan, err := e.Plan(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	wantStatuses(t, plan, map[string]Status{"a": StatusHit, "b": StatusMiss, "c": StatusBlocked, "x": StatusHit})
	if r := plan.Step("b").Reason; !strings.Contains(r, `config.text: "b" → "B2" (b.hcl:1,1)`) {
		t.Errorf("plan reason for b = %q", r)
	}
	x, err := e.Explain(context.Background(), g, "c")
	if err != nil {
		t.Fatal(err)
	}
	if txt := strings.Join(x.Lines(), "\n"); !strings.Contains(txt, "waits on b") || !strings.Contains(txt, `"b" → "B2"`) {
		t.Errorf("explain c:\n%s", txt)
	}
	rep := build(t, e, steps...)
	wantStatuses(t, rep, map[string]Status{"a": StatusHit, "b": StatusRan, "c": StatusRan, "x": StatusHit})
	// After the run, explain says why b last ran.
	x, _ = e.Explain(context.Background(), g, "b")
	if x.Status != StatusHit || len(x.Changes) != 1 || x.Changes[0].Component != "config.text" || x.Changes[0].Source != "b.hcl:1,1" {
		t.Errorf("explain b after run: %+v", x)
	}
}

func TestEarlyCutoff(t *testing.T) {
	e := newEngine(t, t.TempDir())
	steps := chain()
	setField(steps[0], "upper", true)
	setField(steps[0], "text", "a")
	build(t, e, steps...)
	// "A" upper-cased is still "A": a reruns, its output is unchanged, so b and c do not.
	setField(steps[0], "text", "A")
	rep := build(t, e, steps...)
	wantStatuses(t, rep, map[string]Status{"a": StatusRan, "b": StatusHit, "c": StatusHit})
}

func TestFailureSkipsDependentsOnlyAndIsNotCached(t *testing.T) {
	e := newEngine(t, t.TempDir())
	steps := chain()
	setField(steps[0], "fail", true)
	g, _ := NewGraph(steps)
	rep, err := e.Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	wantStatuses(t, rep, map[string]Status{"a": StatusFailed, "b": StatusSkipped, "c": StatusSkipped, "x": StatusRan})
	if r := rep.Step("b").Reason; r != "input a failed: told to fail" {
		t.Errorf("skip reason = %q", r)
	}
	if r := rep.Step("c").Reason; r != "input a failed: told to fail" {
		t.Errorf("skip reason two levels down = %q, want the root cause", r)
	}
	before := kText.runs.Load()
	rep, _ = e.Build(context.Background(), g)
	wantStatuses(t, rep, map[string]Status{"a": StatusFailed, "x": StatusHit})
	if kText.runs.Load() != before+1 {
		t.Errorf("a failed step must rerun, not be served from cache")
	}
	plan, _ := e.Plan(context.Background(), g)
	if r := plan.Step("a").Reason; !strings.Contains(r, "previous run failed: told to fail") {
		t.Errorf("plan reason for failed step = %q", r)
	}
}

func TestCorruptResultBlobIsRecomputed(t *testing.T) {
	dir := t.TempDir()
	e := newEngine(t, dir)
	rep := build(t, e, chain()...)
	rec, err := e.cache.GetAction(rep.Step("a").Key)
	if err != nil {
		t.Fatal(err)
	}
	blob := filepath.Join(dir, "cas", string(rec.Results[0].Digest[:2]), string(rec.Results[0].Digest))
	if err := os.WriteFile(blob, []byte("X"), 0o644); err != nil { // same size, other bytes
		t.Fatal(err)
	}
	rep = build(t, e, chain()...)
	wantStatuses(t, rep, map[string]Status{"a": StatusRan, "b": StatusHit, "c": StatusHit})
	if b, _ := os.ReadFile(blob); string(b) != "a" {
		t.Errorf("blob not restored: %q", b)
	}
}

func TestCorruptTreeMemberIsRepairedWhileReading(t *testing.T) {
	dir := t.TempDir()
	e := newEngine(t, dir)
	mk := func() []*Step {
		return []*Step{
			{ID: "src", Kind: "test.tree", Config: []Field{{Name: "files", Value: map[string]string{"a.txt": "hello", "d/b.txt": "world"}}}},
			// A neighbour input whose blobs are fine: it must not rerun.
			{ID: "other", Kind: "test.tree", Config: []Field{{Name: "files", Value: map[string]string{"c.txt": "fine"}}}},
			{ID: "read", Kind: "test.treereader", Inputs: []Input{{Name: "tree", Step: "src"}, {Name: "neighbour", Step: "other"}}},
		}
	}
	build(t, e, mk()...)
	if res, err := e.cache.Verify(); err != nil || len(res.Broken)+len(res.Corrupt) != 0 {
		t.Fatalf("a fresh tree result fails verify: %+v %v", res, err)
	}
	// Corrupt a member blob (size kept): the hit check only stats members,
	// the reader's verification catches it and the producer reruns.
	blob := filepath.Join(dir, "cas", string(cache.Sum([]byte("hello"))[:2]), string(cache.Sum([]byte("hello"))))
	if err := os.WriteFile(blob, []byte("HELLO"), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := mk()
	steps[2].Config = []Field{{Name: "v", Value: 2}} // force the reader to run
	treeRuns := kTree.runs.Load()
	rep := build(t, e, steps...)
	wantStatuses(t, rep, map[string]Status{"src": StatusHit, "other": StatusHit, "read": StatusRan})
	if got := kTree.runs.Load() - treeRuns; got != 1 {
		t.Errorf("%d tree producers recomputed; want exactly the one holding the corrupt blob", got)
	}
}

func TestCycleReportedOnceWithSources(t *testing.T) {
	steps := []*Step{text("a", "g", "a", "c"), text("b", "g", "b", "a"), text("c", "g", "c", "b"), text("d", "g", "d", "d"), text("e", "g", "e")}
	_, err := NewGraph(steps)
	var ce *CycleError
	if !errors.As(err, &ce) {
		t.Fatalf("want CycleError, got %v", err)
	}
	if len(ce.Cycles) != 2 {
		t.Fatalf("cycles = %d, want 2: %v", len(ce.Cycles), err)
	}
	if msg := err.Error(); !strings.Contains(msg, "a (a.hcl:1,1)") || !strings.Contains(msg, "d (d.hcl:1,1) → d") {
		t.Errorf("cycle message lacks sources:\n%s", msg)
	}
}

func TestGraphRejectsUnknownInputsAndKinds(t *testing.T) {
	_, err := NewGraph([]*Step{text("a", "g", "a", "nope"), {ID: "k", Kind: "no.such.kind"}, text("a", "g", "dup")})
	if err == nil {
		t.Fatal("want error")
	}
	for _, want := range []string{"unknown step nope", `unknown kind "no.such.kind"`, "declared twice"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

func TestCancelRecordsNothing(t *testing.T) {
	kBlock.started = make(chan struct{})
	e := newEngine(t, t.TempDir())
	steps := []*Step{{ID: "blk", Kind: "test.block"}, text("after", "g", "x", "blk")}
	g, _ := NewGraph(steps)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-kBlock.started; cancel() }()
	rep, err := e.Build(ctx, g)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	wantStatuses(t, rep, map[string]Status{"blk": StatusCanceled, "after": StatusCanceled})
	if _, err := e.cache.GetAction(rep.Step("blk").Key); !errors.Is(err, cache.ErrMiss) {
		t.Errorf("a cancelled step left an action record: %v", err)
	}
}

// TestSideLogIsCapped: a log over the cap keeps its head and its tail (a
// runner's summary is at the end), written in pieces of any size.
func TestSideLogIsCapped(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"under the cap", []string{"abc", "def"}, "abcdef"},
		{"exactly the cap", []string{"0123456789"}, "0123456789"},
		{"one big write", []string{strings.Repeat("x", 20) + "TAIL!"}, "xxxxx\n[osbench: output truncated: 15 bytes dropped between the first 5 and the last 5]\nTAIL!"},
		{"many small writes", strings.Split("abcdefghijklmnopqrstuvwxyz", ""), "abcde\n[osbench: output truncated: 16 bytes dropped between the first 5 and the last 5]\nvwxyz"},
		{"a write across head and tail", []string{"abc", "defghijk", "lm"}, "abcde\n[osbench: output truncated: 3 bytes dropped between the first 5 and the last 5]\nijklm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			c, _ := cache.Open(dir)
			e := New(c, Options{Jobs: 1, LogCap: 10})
			rc, err := e.newRunContext(&Step{ID: "s"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			w, _ := rc.SideWriter("log")
			for _, s := range tt.writes {
				fmt.Fprint(w, s)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			b, err := c.ReadBytes(rc.side[0].Digest)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("capped log = %q, want %q", b, tt.want)
			}
			// The same cap on a file keeps the same head and tail.
			p := filepath.Join(dir, "f")
			os.WriteFile(p, []byte(strings.Join(tt.writes, "")), 0o644)
			if err := rc.PutSideFile("file", p); err != nil {
				t.Fatal(err)
			}
			if b, _ := c.ReadBytes(rc.side[1].Digest); string(b) != tt.want {
				t.Errorf("capped file = %q, want %q", b, tt.want)
			}
		})
	}
}

// pairKind records two results: "text" and "note".
type pairKind struct{}

func (pairKind) Name() string    { return "test.pair" }
func (pairKind) Version() string { return "1" }
func (pairKind) Run(ctx context.Context, rc *RunContext) error {
	var cfg struct{ Text, Note string }
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	if err := rc.PutBytes("text", []byte(cfg.Text)); err != nil {
		return err
	}
	return rc.PutBytes("note", []byte(cfg.Note))
}

func init() { RegisterKind(pairKind{}) }

func pair(id, text, note string) *Step {
	return &Step{ID: id, Kind: "test.pair", Config: []Field{{Name: "text", Value: text}, {Name: "note", Value: note}}}
}

// An input naming one result is keyed by that result alone: the producer's
// other results changing reruns nothing, and another producer of the same
// result serves the same consumer run.
func TestInputOfOneResult(t *testing.T) {
	e := newEngine(t, t.TempDir())
	consumer := func(id, producer, result string) *Step {
		s := text(id, "", "c")
		s.Exports = nil
		s.Inputs = []Input{{Name: "in0", Step: producer, Result: result}}
		return s
	}
	build(t, e, pair("p", "same", "one"), consumer("c", "p", "text"), consumer("whole", "p", ""))
	rep := build(t, e, pair("p", "same", "two"), consumer("c", "p", "text"), consumer("whole", "p", ""))
	wantStatuses(t, rep, map[string]Status{"p": StatusRan, "c": StatusHit, "whole": StatusRan})
	rep = build(t, e, pair("other", "same", "three"), consumer("c2", "other", "text"))
	wantStatuses(t, rep, map[string]Status{"other": StatusRan, "c2": StatusHit})

	g, err := NewGraph([]*Step{pair("p", "same", "one"), consumer("c", "p", "nosuch")})
	if err != nil {
		t.Fatal(err)
	}
	rep, _ = e.Build(context.Background(), g)
	if r := rep.Step("c"); r.Status != StatusFailed || !strings.Contains(r.Error, `has no result "nosuch"`) {
		t.Errorf("input naming a missing result: %s %q", r.Status, r.Error)
	}
}

// TestHistoryAndTracesArePrivate: what osbench records of its runs
// (commands, errors, key components) is readable by osbench only, never by
// the unprivileged users steps run as.
func TestHistoryAndTracesArePrivate(t *testing.T) {
	dir := t.TempDir()
	e := newEngine(t, dir)
	build(t, e, chain()...)
	for _, sub := range []string{"history", "traces"} {
		root := filepath.Join(e.cache.Dir(), sub)
		n := 0
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			if perm := info.Mode().Perm(); perm&0o077 != 0 {
				t.Errorf("%s: mode %v, want nothing for group or others", p, perm)
			}
			n++
			return nil
		})
		if err != nil || n < 2 {
			t.Errorf("%s: walked %d entries, %v; want the directory and its files", sub, n, err)
		}
	}
}
