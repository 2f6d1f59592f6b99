package corpusreport

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"

	"github.com/osbench/osbench/schemas"
)

// Preservation is the check, made from a build's exports alone, that no
// task's mask touched a line the source platform executed (DESIGN §2.4:
// the source must keep working). The mask step enforces it region by
// region; this recomputes it independently, from what a task publishes —
// the gold patch, whose added lines are exactly the R+ lines the mask
// replaced or removed — and the source platform's exported coverage.
type Preservation struct {
	Tasks        int // tasks checked
	MaskedLines  int // R+ lines their masks replaced or removed
	Unchecked    []string
	Violations   []Violation
	CoverageRuns int // source coverage files read
}

// Violation is a task whose mask touched lines the source executed.
type Violation struct {
	InstanceID string
	File       string
	Lines      []int
}

func (v Violation) String() string {
	return fmt.Sprintf("%s: %s lines %v", v.InstanceID, v.File, v.Lines)
}

// CheckPreservation reads DIR/tasks.jsonl and, per task, the coverage of
// its source platform's complete run (DIR/runs/<repository>/<source>/
// coverage.json, which build --out exports). A task whose coverage is not
// there is listed in Unchecked, never counted as preserved. No tasks.jsonl
// is no tasks.
func CheckPreservation(buildOut string) (Preservation, error) {
	var p Preservation
	f, err := os.Open(filepath.Join(buildOut, "tasks.jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	defer f.Close()
	coverage := map[string]map[string][]int{} // repository/platform → file → executed lines
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20) // a task line holds its gold patch
	for n := 1; sc.Scan(); n++ {
		var t schemas.Task
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return p, fmt.Errorf("tasks.jsonl:%d: %v", n, err)
		}
		run := t.RepositoryName() + "/" + t.SourceOS
		executed, ok := coverage[run]
		if !ok {
			if executed, err = readExecuted(filepath.Join(buildOut, "runs", t.RepositoryName(), t.SourceOS, "coverage.json")); err != nil {
				return p, err
			}
			coverage[run] = executed
			if executed != nil {
				p.CoverageRuns++
			}
		}
		if executed == nil {
			p.Unchecked = append(p.Unchecked, t.InstanceID)
			continue
		}
		restored, err := restoredLines(t.Patch)
		if err != nil {
			return p, fmt.Errorf("tasks.jsonl:%d (%s): gold patch: %v", n, t.InstanceID, err)
		}
		p.Tasks++
		for _, file := range sortedKeys(restored) {
			lines := restored[file]
			p.MaskedLines += len(lines)
			var hit []int
			for _, l := range lines {
				if _, found := slices.BinarySearch(executed[file], l); found {
					hit = append(hit, l)
				}
			}
			if len(hit) > 0 {
				p.Violations = append(p.Violations, Violation{InstanceID: t.InstanceID, File: file, Lines: hit})
			}
		}
	}
	return p, sc.Err()
}

// readExecuted indexes a coverage.json by file, lines sorted; nil when the
// file is not there.
func readExecuted(path string) (map[string][]int, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var c schemas.Coverage
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	out := make(map[string][]int, len(c.Files))
	for _, f := range c.Files {
		lines := slices.Clone(f.Executed)
		slices.Sort(lines)
		out[f.Path] = lines
	}
	return out, nil
}

// restoredLines are, per file, the line numbers in R+ of the gold patch's
// added lines: what the mask had replaced or removed.
func restoredLines(patch string) (map[string][]int, error) {
	files, _, err := gitdiff.Parse(strings.NewReader(patch))
	if err != nil {
		return nil, err
	}
	out := map[string][]int{}
	for _, f := range files {
		if f.IsDelete {
			continue // a file the mask added: nothing of R+ in it
		}
		for _, frag := range f.TextFragments {
			line := int(frag.NewPosition)
			for _, l := range frag.Lines {
				switch l.Op {
				case gitdiff.OpAdd:
					out[f.NewName] = append(out[f.NewName], line)
					line++
				case gitdiff.OpContext:
					line++
				}
			}
		}
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
