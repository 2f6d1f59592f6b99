package schemas

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compile loads a schema as schematest.Compile does for every other
// package's tests; schematest imports this package, so its own tests keep
// this copy (an import cycle otherwise).
func compile(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	src, ok := Schema(name)
	if !ok {
		t.Fatalf("no schema %q", name)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name+".schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name + ".schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, v any) error {
	t.Helper()
	b, _ := json.Marshal(v)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(inst)
}

func TestSchemasAcceptGoodAndRejectBad(t *testing.T) {
	tests := compile(t, "tests")
	cov := compile(t, "coverage")
	good := TestResults{Repository: "r", Platform: "linux", Parser: "go-test-json", Tests: []TestResult{{ID: "m/p/TestA", Status: StatusPass}}}
	if err := validate(t, tests, good); err != nil {
		t.Errorf("good tests.json rejected: %v", err)
	}
	for name, bad := range map[string]TestResults{
		"status":     {Repository: "r", Platform: "linux", Parser: "p", Tests: []TestResult{{ID: "a", Status: "passed"}}},
		"exe suffix": {Repository: "r", Platform: "linux", Parser: "p", Tests: []TestResult{{ID: "bin.exe/a", Status: StatusPass}}},
		"backslash":  {Repository: "r", Platform: "linux", Parser: "p", Tests: []TestResult{{ID: `a\b`, Status: StatusPass}}},
		"platform":   {Repository: "r", Platform: "win", Parser: "p", Tests: []TestResult{}},
	} {
		if err := validate(t, tests, bad); err == nil {
			t.Errorf("%s: bad tests.json accepted", name)
		}
	}
	goodCov := Coverage{Repository: "r", Platform: "windows", Format: "go-coverprofile", Files: []FileCoverage{{Path: "a/b.go", Executed: []int{1}, Instrumented: []int{1, 2}}}}
	if err := validate(t, cov, goodCov); err != nil {
		t.Errorf("good coverage.json rejected: %v", err)
	}
	for _, p := range []string{"/abs/x.go", `c:\x.go`, "../x.go", `a\b.go`} {
		bad := goodCov
		bad.Files = []FileCoverage{{Path: p, Executed: []int{}, Instrumented: []int{}}}
		if err := validate(t, cov, bad); err == nil {
			t.Errorf("coverage path %q accepted", p)
		}
	}
	if !strings.Contains(strings.Join(Names(), ","), "coverage") {
		t.Errorf("Names() = %v", Names())
	}
}
