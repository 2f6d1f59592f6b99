package tamperscan

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/plugins/tamper"
	"github.com/osbench/osbench/schemas"
)

const (
	forging = "diff --git a/forge.go b/forge.go\nnew file mode 100644\n--- /dev/null\n+++ b/forge.go\n@@ -0,0 +1,6 @@\n" +
		"+package p\n+\n+import \"os\"\n+\n+func init() { os.Stdout.WriteString(\"--- PASS: TestX (0.00s)\\n\"); os.Exit(0) }\n+// end\n"
	clean = "diff --git a/p.go b/p.go\n--- a/p.go\n+++ b/p.go\n@@ -1,3 +1,3 @@\n package p\n \n-func F() int { return 0 }\n+func F() int { return 1 }\n"
)

// TestScanStep runs the step through the engine and a real cache: the
// findings land in scan.json, a clean patch has none, and a step whose
// configuration names other rules fails rather than record this rule
// set's findings under that key.
func TestScanStep(t *testing.T) {
	c, err := cache.Open(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	var steps []*engine.Step
	for name, patch := range map[string]string{"forging": forging, "clean": clean} {
		d, err := c.PutBytes([]byte(patch))
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, &engine.Step{ID: "scan/" + name, Kind: Kind, Config: Fields(string(d), "preds.jsonl:1")})
		if name == "clean" {
			steps = append(steps, &engine.Step{ID: "scan/stale", Kind: Kind, Config: []engine.Field{
				{Name: "patch", Value: string(d)}, {Name: "rules", Value: "0"},
			}})
		}
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
	read := func(id string) schemas.TamperScan {
		t.Helper()
		r := rep.Step(id)
		if r.Status != engine.StatusRan {
			t.Fatalf("%s: %s %s", id, r.Status, r.Error)
		}
		a, err := eng.Artifacts(r)
		if err != nil {
			t.Fatal(err)
		}
		var s schemas.TamperScan
		if err := a.DecodeJSON(Output, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	f := read("scan/forging")
	if f.Rules != tamper.Version {
		t.Errorf("rules %q, want %q", f.Rules, tamper.Version)
	}
	rules := map[string]bool{}
	for _, x := range f.Findings {
		rules[x.Rule] = true
		if x.File != "forge.go" || x.PatchLine != 10 {
			t.Errorf("finding %+v: want forge.go, patch line 10", x)
		}
	}
	for _, want := range []string{tamper.RuleGoOutput, tamper.RuleInitExit, tamper.RuleInitOutput} {
		if !rules[want] {
			t.Errorf("no %s finding in %+v", want, f.Findings)
		}
	}
	if c := read("scan/clean"); len(c.Findings) != 0 || c.Findings == nil {
		t.Errorf("clean patch: findings %#v, want an empty list", c.Findings)
	}
	if r := rep.Step("scan/stale"); r.Status != engine.StatusFailed || !strings.Contains(r.Error, "rule set") {
		t.Errorf("stale rules: %s %q, want a failure naming the rule set", r.Status, r.Error)
	}
}

// TestRulesInKey: the rule set's version is part of the configuration,
// so it enters the step's key.
func TestRulesInKey(t *testing.T) {
	found := false
	for _, f := range Fields("abc", "x") {
		if f.Name == "rules" && f.Value == tamper.Version {
			found = true
		}
	}
	if !found {
		t.Errorf("Fields carries no rules = %q", tamper.Version)
	}
}
