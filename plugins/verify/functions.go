package verify

import (
	"fmt"
	"sort"
)

// Function is one function definition of a file, as the verifier's front
// end for the file's language reads it: its name and the lines it spans
// (1-based, inclusive: the header through the closing brace).
type Function struct {
	Name string `json:"name"`
	From int    `json:"from"`
	To   int    `json:"to"`
}

// Functions lists the function definitions of a file, sorted by first
// line (an outer function before the ones nested in it). It reads the file
// exactly as Rules does, so what splits a direction's regions into tasks
// and what judged them agree on where a function begins and ends. An
// unsupported language or an unparsable Go file is an error.
func Functions(file string, src []byte) ([]Function, error) {
	lang := LanguageOf(file)
	read, ok := frontEnd(lang)
	if !ok {
		return nil, fmt.Errorf("functions of %s: unsupported language %q", file, lang)
	}
	m, err := read(file, src)
	if err != nil {
		return nil, err
	}
	out := make([]Function, 0, len(m.Funcs))
	for _, f := range m.Funcs {
		out = append(out, Function{Name: f.Name, From: f.From, To: f.To})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].From != out[j].From {
			return out[i].From < out[j].From
		}
		return out[i].To > out[j].To
	})
	return out, nil
}
