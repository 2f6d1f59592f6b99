package agentsolve

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestGuardReads: the usage file is read as it grows, in pieces, the last
// good line counting; the first budget exceeded ends the agent once.
func TestGuardReads(t *testing.T) {
	for _, tc := range []struct {
		name     string
		steps    int
		cost     float64
		writes   []string // appended between reads; "TRUNCATE" empties the file
		want     *Usage
		exceeded string
	}{
		{name: "nothing reported", steps: 3},
		{name: "a line in two pieces", steps: 3, writes: []string{`{"steps":2,"cost`, `_usd":0.5}` + "\n"},
			want: &Usage{Steps: 2, CostUSD: 0.5}},
		{name: "the last line without newline, read at the end", steps: 3, writes: []string{`{"steps":1}` + "\n" + `{"steps":2}`},
			want: &Usage{Steps: 2}},
		{name: "bad lines counted and skipped", steps: 3,
			writes: []string{"{\"steps\":1}\nnope\n{\"steps\":-1}\n{\"steps\":1.5}\n{\"steps\":2} {\"steps\":9}\n" + strings.Repeat("x", maxUsageLine+1)},
			want:   &Usage{Steps: 1, BadLines: 5}},
		{name: "unknown fields ignored", writes: []string{`{"steps":4,"model":"m","cost_usd":0.1}` + "\n"},
			want: &Usage{Steps: 4, CostUSD: 0.1}},
		{name: "steps over, reported", steps: 3, writes: []string{`{"steps":3}` + "\n", `{"steps":4}` + "\n", `{"steps":9,"cost_usd":99}` + "\n"},
			want: &Usage{Steps: 9, CostUSD: 99}, exceeded: "budget exceeded: steps 4 > 3 (reported)"},
		{name: "cost over, reported", cost: 2.5, writes: []string{`{"cost_usd":2.5}` + "\n", `{"cost_usd":2.51}` + "\n"},
			want: &Usage{CostUSD: 2.51}, exceeded: "budget exceeded: cost 2.51 > 2.5 USD (reported)"},
		{name: "no budget, nothing exceeded", writes: []string{`{"steps":1000,"cost_usd":1000}` + "\n"},
			want: &Usage{Steps: 1000, CostUSD: 1000}},
		{name: "truncated and rewritten", steps: 10, writes: []string{`{"steps":5,"cost_usd":0.25}` + "\n", "TRUNCATE", `{"steps":6}` + "\n"},
			want: &Usage{Steps: 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cancels := 0
			g, err := newGuard(t.TempDir(), tc.steps, tc.cost, func() { cancels++ })
			if err != nil {
				t.Fatal(err)
			}
			if g.env()[EnvUsage] != g.path {
				t.Errorf("env %v", g.env())
			}
			for _, w := range tc.writes {
				flag := os.O_APPEND | os.O_WRONLY
				if w == "TRUNCATE" {
					flag, w = os.O_TRUNC|os.O_WRONLY, ""
				}
				f, err := os.OpenFile(g.path, flag, 0)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.WriteString(w); err != nil {
					t.Fatal(err)
				}
				f.Close()
				g.read()
			}
			g.finish()
			if got := g.Usage(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("usage = %+v, want %+v", got, tc.want)
			}
			if got := g.Exceeded(); got != tc.exceeded {
				t.Errorf("exceeded = %q, want %q", got, tc.exceeded)
			}
			if want := map[bool]int{true: 1, false: 0}[tc.exceeded != ""]; cancels != want {
				t.Errorf("the agent was ended %d times, want %d", cancels, want)
			}
		})
	}
}

// TestGuardModelCalls: the proxy's word ends the agent once, with the
// count; a later report does not replace the reason.
func TestGuardModelCalls(t *testing.T) {
	cancels := 0
	g, err := newGuard(t.TempDir(), 100, 0, func() { cancels++ })
	if err != nil {
		t.Fatal(err)
	}
	g.modelCall(101)
	g.modelCall(102)
	if err := os.WriteFile(g.path, []byte(`{"steps":200}`+"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	g.finish()
	if g.Exceeded() != "budget exceeded: steps 101 > 100" || cancels != 1 {
		t.Errorf("exceeded %q, ended %d times", g.Exceeded(), cancels)
	}
}
