package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas/schematest"
)

// TestBuildArtifactsMatchSchemas checks the example build's exported
// regions.json (every direction of every repository), build-report.json,
// and the gold predictions of its tasks (as an agent would write them for
// `osbench eval`) against their schemas.
func TestBuildArtifactsMatchSchemas(t *testing.T) {
	_, out := exportCorpus(t)

	regions, err := filepath.Glob(filepath.Join(out, "candidates", "*", "*", "regions.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Six repositories, both directions each.
	if len(regions) < 12 {
		t.Errorf("%d regions.json exported, want one per repository and direction: %v", len(regions), regions)
	}
	schema := schematest.Compile(t, "regions")
	for _, p := range regions {
		schematest.ValidateFile(t, schema, p)
	}

	schematest.ValidateFile(t, schematest.Compile(t, "build-report"), filepath.Join(out, "build-report.json"))

	b, err := os.ReadFile(filepath.Join(out, "tasks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	schema = schematest.Compile(t, "prediction")
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for _, line := range lines {
		var task struct {
			ID    string `json:"instance_id"`
			Patch string `json:"patch"`
		}
		if err := json.Unmarshal([]byte(line), &task); err != nil {
			t.Fatal(err)
		}
		pred, _ := json.Marshal(map[string]string{"instance_id": task.ID, "model_name_or_path": "gold", "model_patch": task.Patch})
		if err := schematest.ValidateBytes(t, schema, pred); err != nil {
			t.Errorf("%s: the gold prediction does not match prediction.schema.json: %v", task.ID, err)
		}
	}
}
