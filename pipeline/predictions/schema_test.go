package predictions

import (
	"testing"

	"github.com/osbench/osbench/schemas/schematest"
)

// prediction.schema.json and Read agree on every line: what the schema
// accepts is read as a prediction, what it rejects is a problem of its
// line. (Read also takes a line without a model when --model names one;
// the schema describes the SWE-bench format, which always names it.)
func TestSchemaAgreesWithRead(t *testing.T) {
	schema := schematest.Compile(t, "prediction")
	tests := []struct {
		name, line string
		valid      bool
	}{
		{"swe-bench", `{"instance_id":"a__linux-to-windows","model_name_or_path":"m","model_patch":"diff --git a/x b/x\n"}`, true},
		{"extra keys", `{"instance_id":"a","model_name_or_path":"m","model_patch":"","full_output":"…","cost":1.5}`, true},
		{"empty patch", `{"instance_id":"a","model_name_or_path":"m","model_patch":""}`, true},
		{"no instance", `{"model_name_or_path":"m","model_patch":""}`, false},
		{"empty instance", `{"instance_id":"","model_name_or_path":"m","model_patch":""}`, false},
		{"numeric instance", `{"instance_id":7,"model_name_or_path":"m","model_patch":""}`, false},
		{"no model", `{"instance_id":"a","model_patch":""}`, false},
		{"empty model", `{"instance_id":"a","model_name_or_path":"","model_patch":""}`, false},
		{"no patch", `{"instance_id":"a","model_name_or_path":"m"}`, false},
		{"null patch", `{"instance_id":"a","model_name_or_path":"m","model_patch":null}`, false},
		{"patch list", `{"instance_id":"a","model_name_or_path":"m","model_patch":["diff"]}`, false},
		{"not an object", `"a__linux-to-windows"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			schemaErr := schematest.ValidateBytes(t, schema, []byte(tt.line))
			preds, problems, err := Read(write(t, "p.jsonl", tt.line+"\n"), "")
			if err != nil {
				t.Fatal(err)
			}
			if (schemaErr == nil) != tt.valid {
				t.Errorf("schema: valid = %v, want %v (%v)", schemaErr == nil, tt.valid, schemaErr)
			}
			if read := len(preds) == 1 && len(problems) == 0; read != tt.valid {
				t.Errorf("Read: got %v, problems %v; want valid = %v", preds, problems, tt.valid)
			}
		})
	}
}
