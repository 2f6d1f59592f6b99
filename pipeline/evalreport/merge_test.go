package evalreport

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine/shard"
)

// splitFixture copies the fixture run's instance directories into n shard
// directories, by the instance's shard, and writes each shard's own
// summary as `eval --shard` would.
func splitFixture(t *testing.T, n int) []string {
	t.Helper()
	var dirs []string
	for i := 1; i <= n; i++ {
		dirs = append(dirs, filepath.Join(t.TempDir(), "shard"))
	}
	err := filepath.WalkDir(fixtureRun, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(fixtureRun, p)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if len(parts) < 3 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, dir := range dirs {
			if (shard.Shard{Index: i + 1, Count: n}).Has(parts[1]) {
				writeFile(t, dir, rel, string(b))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		reports, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(reports) == 0 || len(reports) == 15 {
			t.Fatalf("a shard holds %d of the 15 reports: no split", len(reports))
		}
		if _, err := Write(dir, reports); err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

// Shards merged give the summary of the whole run, byte for byte.
func TestMergeShardsGivesTheSingleRunSummary(t *testing.T) {
	whole := t.TempDir()
	all, err := Load(fixtureRun)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(whole, all); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join(whole, SummaryJSON))

	for _, n := range []int{2, 3} {
		shards := splitFixture(t, n)
		out := t.TempDir()
		copied, err := MergeShards(out, shards)
		if err != nil {
			t.Fatal(err)
		}
		if copied != 15 {
			t.Errorf("%d shards: %d reports copied, want 15", n, copied)
		}
		merged, err := Load(out)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Write(out, merged); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(filepath.Join(out, SummaryJSON))
		if !bytes.Equal(got, want) {
			t.Errorf("%d shards: merged summary.json differs from the single run's:\n%s\nwant\n%s", n, got, want)
		}
		// Merging again (a rerun of the report job) changes nothing.
		if _, err := MergeShards(out, shards); err != nil {
			t.Errorf("merging the same shards again: %v", err)
		}
	}
}

// One instance with two different reports in two shards has no single
// summary: the merge refuses.
func TestMergeShardsRefusesConflicts(t *testing.T) {
	shards := splitFixture(t, 2)
	rel := filepath.Join("baseline", "crlf__linux-to-windows", ReportFile)
	b, err := os.ReadFile(filepath.Join(fixtureRun, rel))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range shards {
		if _, err := os.Stat(filepath.Join(dir, rel)); err != nil {
			writeFile(t, dir, rel, strings.Replace(string(b), "{", "{ ", 1))
		}
	}
	_, err = MergeShards(t.TempDir(), shards)
	if err == nil || !strings.Contains(err.Error(), "evaluated differently in two shards") {
		t.Errorf("MergeShards = %v, want a conflict", err)
	}
	if _, err := MergeShards(t.TempDir(), []string{filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Errorf("a missing shard directory was accepted")
	}
}
