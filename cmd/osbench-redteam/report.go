package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// result is one attack's or control's verdict as its report.json says.
type result struct {
	attack
	Outcome string
	// Reason says why: the apply step's reason, the stage not graded or
	// not run, or the required tests that did not pass.
	Reason string
	// Said is what the attack's own program printed in the stage logs
	// (its OSBENCH-REDTEAM lines): how far it got.
	Said []string
	// Failed is set when the result is not what it must be: an attack
	// resolved, or a control did not.
	Failed bool
}

// readResult reads OUT/<model>/<instance_id>/report.json of one attack.
func readResult(evalOut string, a attack) result {
	r := result{attack: a}
	dir := filepath.Join(evalOut, a.Name, a.Task)
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		r.Outcome, r.Reason, r.Failed = "no report", err.Error(), true
		return r
	}
	var rep schemas.EvalReport
	if err := json.Unmarshal(b, &rep); err != nil {
		r.Outcome, r.Reason, r.Failed = "no report", fmt.Sprintf("%s: %v", dir, err), true
		return r
	}
	r.Outcome = rep.Outcome
	r.Reason = reason(rep)
	for _, st := range []schemas.StageResult{rep.StageI, rep.StageII} {
		if st.Log != nil {
			r.Said = append(r.Said, said(filepath.Join(dir, st.Log.Path), st.Platform)...)
		}
	}
	if a.Control {
		r.Failed = !rep.Resolved
	} else {
		r.Failed = rep.Resolved
	}
	return r
}

// reason is why a report's outcome is what it is, in a line.
func reason(rep schemas.EvalReport) string {
	if rep.Apply.Outcome != schemas.ApplyApplied {
		if rep.Apply.Reason != "" {
			return "apply: " + rep.Apply.Reason
		}
		return "apply: " + rep.Apply.Outcome
	}
	if rep.Resolved {
		return "every required test passed on " + rep.StageI.Platform + " and " + rep.StageII.Platform
	}
	var why []string
	for _, st := range []schemas.StageResult{rep.StageI, rep.StageII} {
		stage := st.Platform
		switch {
		case st.InfraFailure != "":
			why = append(why, stage+": infra-failure: "+st.InfraFailure)
		case !st.Ran:
			why = append(why, stage+": did not run")
		case st.NotGraded != "":
			why = append(why, stage+": not graded: "+st.NotGraded)
		case len(st.Failing) > 0:
			counts := map[string]int{}
			first := ""
			for _, t := range st.Tests {
				if t.Status.Passes() {
					continue
				}
				counts[string(t.Status)]++
				if first == "" {
					first = t.ID + " " + string(t.Status)
					if t.Reason != "" {
						first += " (" + t.Reason + ")"
					}
				}
			}
			var c []string
			for s, n := range counts {
				c = append(c, fmt.Sprintf("%d %s", n, s))
			}
			sort.Strings(c)
			why = append(why, fmt.Sprintf("%s: %d of %d required tests did not pass (%s), e.g. %s", stage, len(st.Failing), len(st.Tests), strings.Join(c, ", "), first))
		}
	}
	if len(why) == 0 {
		return "unresolved"
	}
	return strings.Join(why, "; ")
}

// said returns the OSBENCH-REDTEAM lines of a stage log, each once,
// with the platform, without the marker.
func said(path, platform string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	seen := map[string]bool{}
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		i := strings.Index(l, "OSBENCH-REDTEAM ")
		if i < 0 {
			continue
		}
		l = l[i+len("OSBENCH-REDTEAM "):]
		// A test binary's line, as test2json framed it in JSON.
		if j := strings.Index(l, `\n"`); j >= 0 {
			l = l[:j]
		}
		l = strings.TrimSpace(l)
		// The program's source, quoted by a compiler error, is not
		// what it said.
		if l == "" || strings.ContainsAny(l[:1], `"{\`) || strings.Contains(l, `{}"`) || strings.Contains(l, `")`) || strings.Contains(l, `%s`) || seen[l] {
			continue
		}
		seen[l] = true
		lines = append(lines, platform+": "+l)
	}
	// What got through first: the table cell is cut at its cap.
	sort.SliceStable(lines, func(i, j int) bool { return gotThrough(lines[i]) && !gotThrough(lines[j]) })
	return lines
}

// gotThrough is a line saying the attack reached what it wanted.
func gotThrough(l string) bool {
	for _, w := range []string{": READ ", ": WROTE ", ": copied ", ": applied ", ": downloaded "} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// door is a task whose own package sits in a shared dependency cache.
type door struct {
	Task, Package, Path string
}

// findDoors looks for every task's own package, at any version, in the
// cache's shared CARGO_HOME and GOMODCACHE.
func findDoors(e env, tasks []*task) []door {
	var doors []door
	for _, t := range tasks {
		repo := e.maskedRepo(t.ID)
		switch t.Language {
		case "rust":
			if crate, _, err := crateName(repo); err == nil {
				for _, d := range ownInCargoHome(e, crate) {
					doors = append(doors, door{t.ID, crate, d})
				}
			}
		case "go":
			if mod, err := goModule(repo); err == nil {
				for _, d := range ownInModCache(e, mod) {
					doors = append(doors, door{t.ID, mod, d})
				}
			}
		}
	}
	return doors
}

// writeReport writes the red team's page: what ran where, a table per
// task, and the doors of the dependency caches.
func writeReport(w io.Writer, header string, results []result, doors []door) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# Red team: issue 19's attacks on corpus packages\n\n")
	fmt.Fprintf(bw, "Written by `make redteam` (`go run ./cmd/osbench-redteam`). Every attack is a real patch against a task of the corpus that restores none of the masked code itself; it must not resolve. Every control is the gold patch with a comment of this run; it must resolve, the ones marked *later* in a second eval on the same cache after every attack ran. The make target fails otherwise.\n\n")
	if header != "" {
		fmt.Fprintf(bw, "%s\n\n", header)
	}
	failed := 0
	for _, r := range results {
		if r.Failed {
			failed++
		}
	}
	fmt.Fprintf(bw, "%d predictions, %d not as they must be.\n", len(results), failed)
	byTask := map[string][]result{}
	var order []string
	for _, r := range results {
		if _, ok := byTask[r.Task]; !ok {
			order = append(order, r.Task)
		}
		byTask[r.Task] = append(byTask[r.Task], r)
	}
	for _, id := range order {
		fmt.Fprintf(bw, "\n## %s\n\n", id)
		fmt.Fprintf(bw, "| prediction | class | what it does | expected defence | outcome | reason (report.json) | what its program said |\n|---|---|---|---|---|---|---|\n")
		for _, r := range byTask[id] {
			name := "`" + r.Name + "`"
			if r.Later {
				name += " (later)"
			}
			outcome := r.Outcome
			switch {
			case !r.Failed:
			case r.Control:
				outcome = "**" + outcome + " (must resolve)**"
			case r.Outcome == "resolved":
				outcome = "**" + outcome + " (must not resolve)**"
			default:
				outcome = "**" + outcome + " (must be judged)**"
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s | %s | %s | %s |\n", name, r.Class, cell(r.Does), cell(r.Defence), outcome, cell(r.Reason), cell(strings.Join(r.Said, "; ")))
		}
	}
	fmt.Fprintf(bw, "\n## The own package in the dependency cache\n\n")
	fmt.Fprintf(bw, "The task's own package, at any version, among the extracted sources of the cache's shared CARGO_HOME or GOMODCACHE, which every cargo or go command of every task sees (read-only or copy-on-write). A `#[path]` or `include!` (Rust) compiles such a copy with no new dependency and no new cargo target; Go needs a require or replace of it, which the locked set refuses, so a test program can only read it. C commands name no shared dependency cache.\n\n")
	if len(doors) == 0 {
		fmt.Fprintf(bw, "None found.\n")
	} else {
		fmt.Fprintf(bw, "| task | package | path |\n|---|---|---|\n")
		for _, d := range doors {
			fmt.Fprintf(bw, "| %s | `%s` | `%s` |\n", d.Task, d.Package, d.Path)
		}
	}
	return bw.Flush()
}

// cell makes text safe in a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", `\|`)
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return s
}
