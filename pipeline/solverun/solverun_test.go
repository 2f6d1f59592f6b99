package solverun

import (
	"reflect"
	"testing"
	"time"

	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/steps/agentsolve"
)

// TestAgentConfigBudgets: every budget of the declaration reaches the
// solve step's configuration, so changing one changes the key.
func TestAgentConfigBudgets(t *testing.T) {
	base := manifests.Agent{Name: "a", Command: []string{"sh"}, Wall: time.Hour, Steps: 10, Cost: 2.5}
	got, err := agentConfig(&base)
	if err != nil {
		t.Fatal(err)
	}
	if got.Wall != "1h0m0s" || got.Steps != 10 || got.Cost != 2.5 {
		t.Errorf("agentConfig budgets = wall %s, steps %d, cost %g", got.Wall, got.Steps, got.Cost)
	}
	for name, change := range map[string]func(*manifests.Agent){
		"wall":  func(a *manifests.Agent) { a.Wall = 2 * time.Hour },
		"steps": func(a *manifests.Agent) { a.Steps = 11 },
		"cost":  func(a *manifests.Agent) { a.Cost = 3 },
	} {
		a := base
		change(&a)
		other, err := agentConfig(&a)
		if err != nil {
			t.Fatal(err)
		}
		if reflect.DeepEqual(got, other) {
			t.Errorf("changing budget.%s leaves the agent's configuration as it was", name)
		}
	}
}

func TestSpent(t *testing.T) {
	var s Spent
	s.add("a@attempt-1 t1", agentsolve.Result{ModelCalls: 4, Usage: &agentsolve.Usage{Steps: 4, CostUSD: 0.25}})
	s.add("a@attempt-1 t2", agentsolve.Result{ModelCalls: 3, BudgetExceeded: "budget exceeded: steps 4 > 3"})
	s.add("a@attempt-1 t3", agentsolve.Result{Usage: &agentsolve.Usage{Steps: 2, CostUSD: 1.5}, BudgetExceeded: "budget exceeded: cost 1.5 > 1 USD (reported)"})
	want := "7 model calls counted by the proxy; 2 attempts reported 6 steps, 1.75 USD; 2 of 3 attempts over budget"
	if got := s.Line(); got != want {
		t.Errorf("Line() = %q, want %q", got, want)
	}
	if len(s.OverBudget) != 2 || s.OverBudget[0] != "a@attempt-1 t2: budget exceeded: steps 4 > 3" {
		t.Errorf("OverBudget = %q", s.OverBudget)
	}
}
