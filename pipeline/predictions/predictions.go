// Package predictions reads what an evaluation takes in: agents' patches in
// SWE-bench's prediction format (JSONL, a JSON list, or a directory of
// <instance_id>.diff files) and the tasks.jsonl they answer.
//
// Reading never stops at the first bad entry: every problem is returned
// with the file and line it came from, and everything else is kept, so one
// malformed line does not cost the evaluation of the rest.
package predictions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Prediction is one agent's patch for one task.
type Prediction struct {
	InstanceID string
	Model      string
	Patch      string
	// Where is the file:line the prediction was read from.
	Where string
}

// Problem is an entry that could not be used, and where it was.
type Problem struct {
	Where string // file:line, or file
	Msg   string
}

func (p Problem) Error() string { return p.Where + ": " + p.Msg }

// record is a prediction as SWE-bench writes it. Other keys (an agent's
// full output, costs) are allowed and ignored.
type record struct {
	InstanceID *string `json:"instance_id"`
	Model      *string `json:"model_name_or_path"`
	Patch      *string `json:"model_patch"`
}

// Read reads predictions from path: a directory of <instance_id>.diff (or
// .patch) files, whose model is model; a JSON list; or JSON lines. model,
// when set, names the model of entries that do not name one.
func Read(path, model string) ([]Prediction, []Problem, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if fi.IsDir() {
		if model == "" {
			return nil, nil, fmt.Errorf("%s: a directory of patches needs --model to name the model", path)
		}
		return readDir(path, model)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	if t := bytes.TrimLeft(b, " \t\r\n\ufeff"); len(t) > 0 && t[0] == '[' {
		return readList(path, b, model)
	}
	return readLines(path, b, model)
}

func readDir(dir, model string) ([]Prediction, []Problem, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var preds []Prediction
	var problems []Problem
	for _, e := range entries {
		name := e.Name()
		ext := filepath.Ext(name)
		if e.IsDir() || (ext != ".diff" && ext != ".patch") {
			continue
		}
		p := filepath.Join(dir, name)
		if !e.Type().IsRegular() {
			problems = append(problems, Problem{p, "not a regular file"})
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		preds = append(preds, Prediction{InstanceID: strings.TrimSuffix(name, ext), Model: model, Patch: string(b), Where: p})
	}
	sort.Slice(preds, func(i, j int) bool { return preds[i].InstanceID < preds[j].InstanceID })
	return preds, problems, nil
}

func readLines(path string, b []byte, model string) ([]Prediction, []Problem, error) {
	var preds []Prediction
	var problems []Problem
	err := eachLine(path, b, func(where string, line []byte) {
		p, err := decode(line, model)
		if err != nil {
			problems = append(problems, Problem{where, err.Error()})
			return
		}
		p.Where = where
		preds = append(preds, p)
	})
	if err != nil {
		return nil, nil, err
	}
	return preds, problems, nil
}

// eachLine calls fn with every non-blank line of a JSON-lines file b
// (spaces trimmed) and where it is ("path:line").
func eachLine(path string, b []byte, fn func(where string, line []byte)) error {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 256<<20)
	for n := 1; sc.Scan(); n++ {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			fn(fmt.Sprintf("%s:%d", path, n), line)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// readList reads a JSON list element by element, so a bad element is
// reported at its line and the others are kept.
func readList(path string, b []byte, model string) ([]Prediction, []Problem, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // '['
		return nil, []Problem{{path + ":1", "not a JSON list: " + err.Error()}}, nil
	}
	var preds []Prediction
	var problems []Problem
	for dec.More() {
		start := dec.InputOffset()
		start += int64(len(b[start:]) - len(bytes.TrimLeft(b[start:], " \t\r\n,")))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			// The list itself is broken: nothing after this can be located.
			problems = append(problems, Problem{fmt.Sprintf("%s:%d", path, lineAt(b, start)), "malformed JSON: " + err.Error()})
			return preds, problems, nil
		}
		where := fmt.Sprintf("%s:%d", path, lineAt(b, start))
		p, err := decode(raw, model)
		if err != nil {
			problems = append(problems, Problem{where, err.Error()})
			continue
		}
		p.Where = where
		preds = append(preds, p)
	}
	return preds, problems, nil
}

// lineAt is the 1-based line of byte offset off in b.
func lineAt(b []byte, off int64) int {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	return bytes.Count(b[:off], []byte("\n")) + 1
}

func decode(b []byte, model string) (Prediction, error) {
	var r record
	if err := json.Unmarshal(b, &r); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) || errors.Is(err, io.ErrUnexpectedEOF) {
			return Prediction{}, fmt.Errorf("malformed JSON: %v", err)
		}
		return Prediction{}, fmt.Errorf("not a prediction: %v", err)
	}
	if r.InstanceID == nil || *r.InstanceID == "" {
		return Prediction{}, errors.New(`no "instance_id"`)
	}
	p := Prediction{InstanceID: *r.InstanceID, Model: model}
	if r.Model != nil && *r.Model != "" {
		p.Model = *r.Model
	}
	if p.Model == "" {
		return Prediction{}, errors.New(`no "model_name_or_path" (or pass --model)`)
	}
	if r.Patch == nil {
		return Prediction{}, errors.New(`no "model_patch" (an empty patch is "")`)
	}
	p.Patch = *r.Patch
	return p, nil
}

// Check drops predictions for unknown tasks and repeated ones (the same
// model answering the same task twice: the first is kept), reporting each.
func Check(preds []Prediction, known func(instanceID string) bool) ([]Prediction, []Problem) {
	var kept []Prediction
	var problems []Problem
	first := map[[2]string]string{}
	for _, p := range preds {
		if !known(p.InstanceID) {
			problems = append(problems, Problem{p.Where, fmt.Sprintf("unknown instance_id %q (not in the tasks)", p.InstanceID)})
			continue
		}
		k := [2]string{p.Model, p.InstanceID}
		if at, dup := first[k]; dup {
			problems = append(problems, Problem{p.Where, fmt.Sprintf("duplicate prediction of model %q for %s (first at %s; this one is ignored)", p.Model, p.InstanceID, at)})
			continue
		}
		first[k] = p.Where
		kept = append(kept, p)
	}
	return kept, problems
}
