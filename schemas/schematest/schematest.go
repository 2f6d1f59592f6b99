// Package schematest checks artifacts against osbench's JSON Schemas in
// tests: every package that writes an artifact validates real outputs the
// same way (santhosh-tekuri/jsonschema, draft 2020-12), as httptest serves
// HTTP tests.
package schematest

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/osbench/osbench/schemas"
)

// Compile compiles the named schema (see schemas.Names), failing the test
// when it is unknown or does not compile.
func Compile(t testing.TB, name string) *jsonschema.Schema {
	t.Helper()
	src, ok := schemas.Schema(name)
	if !ok {
		t.Fatalf("schemas has no %q schema", name)
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

// Validate checks v, as encoding/json writes it, against s.
func Validate(t testing.TB, s *jsonschema.Schema, v any) error {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return ValidateBytes(t, s, b)
}

// ValidateBytes checks a JSON document against s.
func ValidateBytes(t testing.TB, s *jsonschema.Schema, b []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(inst)
}

// ValidateFile checks the JSON file at path against s, reporting a
// mismatch as a test error that names the file.
func ValidateFile(t testing.TB, s *jsonschema.Schema, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := ValidateBytes(t, s, b); err != nil {
		t.Errorf("%s does not match its schema: %v", path, err)
	}
}
