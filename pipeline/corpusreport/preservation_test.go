package corpusreport

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/osbench/osbench/plugins/taskpkg"
	"github.com/osbench/osbench/schemas"
)

// writeBuild lays out what build --out exports for one task: tasks.jsonl
// with a real gold patch (git diff of the two trees) and the source
// platform's coverage.json (nil: none exported).
func writeBuild(t *testing.T, original, masked string, executed []int) string {
	t.Helper()
	out, rPlus, rMinus := t.TempDir(), t.TempDir(), t.TempDir()
	for dir, text := range map[string]string{rPlus: original, rMinus: masked} {
		if err := os.WriteFile(filepath.Join(dir, "sep.go"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gold, err := taskpkg.GoldPatch(rMinus, rPlus)
	if err != nil {
		t.Fatal(err)
	}
	task := schemas.Task{InstanceID: "sep__linux-to-windows", Repository: "sep", Patch: gold, SourceOS: "linux", TargetOS: "windows"}
	line, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "tasks.jsonl"), append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if executed != nil {
		cov := schemas.Coverage{Repository: "sep", Platform: "linux", Files: []schemas.FileCoverage{{Path: "sep.go", Executed: executed}}}
		b, _ := json.Marshal(cov)
		dir := filepath.Join(out, "runs", "sep", "linux")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "coverage.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestCheckPreservation(t *testing.T) {
	const original = "package sep\n\nfunc Sep() string {\n\tif windows {\n\t\treturn `\\`\n\t}\n\treturn \"/\"\n}\n"
	const maskedBranch = "package sep\n\nfunc Sep() string {\n\tif windows {\n\t\tpanic(\"todo\")\n\t}\n\treturn \"/\"\n}\n"
	const maskedShared = "package sep\n\nfunc Sep() string {\n\tif windows {\n\t\treturn `\\`\n\t}\n\treturn \"\"\n}\n"
	tests := []struct {
		name       string
		masked     string
		executed   []int // lines of sep.go the source ran
		violations []Violation
		unchecked  []string
	}{
		{name: "the target branch only", masked: maskedBranch, executed: []int{3, 4, 7}},
		{name: "a line the source ran", masked: maskedShared, executed: []int{7, 3, 4},
			violations: []Violation{{InstanceID: "sep__linux-to-windows", File: "sep.go", Lines: []int{7}}}},
		{name: "no coverage exported: unchecked, not preserved", masked: maskedShared, unchecked: []string{"sep__linux-to-windows"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := CheckPreservation(writeBuild(t, original, tt.masked, tt.executed))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Violations, tt.violations) || !reflect.DeepEqual(p.Unchecked, tt.unchecked) {
				t.Errorf("violations %v, unchecked %v; want %v, %v", p.Violations, p.Unchecked, tt.violations, tt.unchecked)
			}
			if tt.executed != nil && (p.Tasks != 1 || p.MaskedLines != 1) {
				t.Errorf("checked %d tasks, %d masked lines; want 1 and 1", p.Tasks, p.MaskedLines)
			}
		})
	}
}
