package testrun

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/osbench/osbench/plugins/parsers"
)

// TestStartMarksGolden records, per parser, the pattern the run's watch
// takes for "tests started" (null: any run counts as started), recorded
// before the marks moved to the runners: the move changes none.
func TestStartMarksGolden(t *testing.T) {
	marks := map[string]*string{}
	for _, p := range parsers.Names() {
		if w := newWatch(p); w.start != nil {
			s := w.start.String()
			marks[p] = &s
		} else {
			marks[p] = nil
		}
	}
	got, err := json.MarshalIndent(marks, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "start-marks.golden.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("start marks differ from %s:\n got %s\nwant %s", golden, got, want)
	}
}
