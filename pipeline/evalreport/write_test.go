package evalreport

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestWriteFileConcurrentWriters: writers that export the same file at
// once (two builds or evals sharing an --out) each succeed, the file is
// always one writer's whole content, and no temporary is left. With one
// fixed temporary name the writers renamed each other's files away and
// failed with ENOENT, or published a mix of two contents.
func TestWriteFileConcurrentWriters(t *testing.T) {
	const writers, rounds = 8, 25
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "summary.json")
	content := func(w int) []byte {
		// Big enough that a write is not one syscall's worth, so a shared
		// temporary would interleave.
		return bytes.Repeat([]byte(fmt.Sprintf("writer %d\n", w)), 20000)
	}
	for round := 0; round < rounds; round++ {
		var wg sync.WaitGroup
		errs := make([]error, writers)
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[w] = WriteFile(path, content(w))
			}()
		}
		wg.Wait()
		for w, err := range errs {
			if err != nil {
				t.Fatalf("round %d, writer %d: %v", round, w, err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		whole := false
		for w := 0; w < writers; w++ {
			whole = whole || bytes.Equal(got, content(w))
		}
		if !whole {
			t.Fatalf("round %d: the file is no writer's whole content (%d bytes)", round, len(got))
		}
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left in the directory: %v, want only summary.json", names)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("summary.json: %v, %v; want mode 0644", info, err)
	}
}
