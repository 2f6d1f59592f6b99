package deps

import (
	"fmt"

	"golang.org/x/mod/modfile"
)

// goMod is what of a go.mod names dependencies: the required module
// versions and the replacements ("old[@v]" → "new[@v]" or a directory).
type goMod struct {
	requires []string
	replaces map[string]string
}

// readGoMod reads the go.mod at dir's root; nil when there is none.
func readGoMod(dir string) (*goMod, error) {
	b, err := readRegular(dir, "go.mod")
	if err != nil || b == nil {
		return nil, err
	}
	f, err := modfile.Parse("go.mod", b, nil)
	if err != nil {
		return nil, fmt.Errorf("go.mod: %w", err)
	}
	m := &goMod{replaces: map[string]string{}}
	for _, r := range f.Require {
		m.requires = append(m.requires, r.Mod.Path+"@"+r.Mod.Version)
	}
	for _, r := range f.Replace {
		m.replaces[r.Old.String()] = r.New.String()
	}
	return m, nil
}

// goOutside is Outside for the root go.mod and go.sum: every required
// module version and every go.sum line's module version must be one the
// task's go.mod requires or its go.sum holds, and every replace must be
// one of the task's.
func goOutside(task, patched string) ([]string, error) {
	tm, err := readGoMod(task)
	if err != nil || tm == nil {
		return nil, err // a repository without go.mod runs no go command
	}
	pm, err := readGoMod(patched)
	if err != nil {
		return []string{"go.mod that does not parse (" + err.Error() + ")"}, nil
	}
	if pm == nil {
		return nil, nil
	}
	allowed := map[string]bool{}
	for _, r := range tm.requires {
		allowed[r] = true
	}
	ts, err := readGoSum(task)
	if err != nil {
		return nil, err
	}
	for m := range ts {
		allowed[m] = true
	}
	var out []string
	for _, r := range pm.requires {
		if !allowed[r] {
			out = append(out, r)
		}
	}
	for old, repl := range pm.replaces {
		if tm.replaces[old] != repl {
			out = append(out, old+" => "+repl+" (a replace)")
		}
	}
	ps, err := readGoSum(patched)
	if err != nil {
		return nil, err
	}
	for m := range ps {
		if !allowed[m] {
			out = append(out, m)
		}
	}
	return out, nil
}
