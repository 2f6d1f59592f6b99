// Command osbench-redteam is the harness behind `make redteam`: issue
// 19's attacks as real patches against corpus tasks. It builds a few
// corpus manifests (or takes a build's --out dir whose tasks a cache
// already holds), generates for each chosen task the attacks of every
// class — the network, the host's files, shared writable state, and the
// task's own package in the dependency cache — and innocent gold-
// equivalent controls, evaluates them with osbench (the controls marked
// later in a second eval on the same cache), and writes docs/redteam.md
// with each verdict and its reason. It fails when an attack resolves or a
// control does not.
//
// The attacks write what they can into the cache's shared state when a
// defence is missing: run it on a cache you can rebuild.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

const (
	defaultManifests = "manifests/corpus/same-file.hcl,manifests/corpus/mattn-go-shellwords.hcl,manifests/corpus/c/cmocka.hcl"
	defaultTasks     = "same-file__windows-to-linux,mattn-go-shellwords__windows-to-linux,cmocka__linux-to-windows"
)

type options struct {
	bin, cache, build, out, write, nonce, note string
	manifests, tasks, only                     []string
	doors, generateOnly                        bool
	flags                                      []string
}

func main() {
	var o options
	manifests := flag.String("manifests", defaultManifests, "corpus manifests to build when -build is not given (comma-separated)")
	tasks := flag.String("tasks", defaultTasks, "the tasks to attack (instance ids, comma-separated)")
	only := flag.String("only", "", "evaluate only these predictions (attack or control names, comma-separated), e.g. to rerun one attack with a defence turned off by hand")
	flags := flag.String("osbench-flags", "", "global flags for osbench's build and eval (space-separated, e.g. \"-j 1\")")
	flag.StringVar(&o.bin, "bin", "bin/osbench", "the osbench binary")
	flag.StringVar(&o.cache, "cache", os.Getenv("OSBENCH_CACHE"), "the cache (default $OSBENCH_CACHE, else OUT/cache)")
	flag.StringVar(&o.build, "build", "", "a build's --out dir (tasks.jsonl, tasks/<id>/repo) whose tasks the cache holds; when empty the manifests are built into OUT/build")
	flag.StringVar(&o.out, "out", "out/redteam", "where the predictions, evaluations and the report go")
	flag.StringVar(&o.write, "write", "docs/redteam.md", "the report's copy to write (empty: none)")
	flag.StringVar(&o.note, "note", "", "a sentence for the report's header (how the cache was made, say)")
	flag.StringVar(&o.nonce, "nonce", "", "marks every patch of this run, so its runs are new (default: the time)")
	flag.BoolVar(&o.generateOnly, "generate-only", false, "write the predictions and the tasks subset into OUT and stop")
	flag.BoolVar(&o.doors, "doors", true, "also attack, with the dependency-cache attacks only, every task of the build whose own package is in the cache's shared dependency caches")
	flag.Parse()
	o.manifests = split(*manifests)
	o.tasks = split(*tasks)
	o.only = split(*only)
	o.flags = strings.Fields(*flags)
	if o.nonce == "" {
		o.nonce = time.Now().UTC().Format("20060102T150405Z")
	}
	failed, err := run(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "osbench-redteam:", err)
		os.Exit(2)
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "osbench-redteam: %d predictions are not as they must be (an attack resolved or a control did not); see %s\n", failed, filepath.Join(o.out, "redteam.md"))
		os.Exit(1)
	}
}

func split(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func run(o options) (int, error) {
	var err error
	if o.out, err = filepath.Abs(o.out); err != nil {
		return 0, err
	}
	if o.cache == "" {
		o.cache = filepath.Join(o.out, "cache")
	}
	if o.cache, err = filepath.Abs(o.cache); err != nil {
		return 0, err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return 0, err
	}
	started, at := time.Now(), commit()
	if o.build == "" {
		o.build = filepath.Join(o.out, "build")
		args := append([]string{"build"}, o.manifests...)
		if err := osbench(o, append(args, "--out", o.build)...); err != nil {
			return 0, fmt.Errorf("build: %w", err)
		}
	}
	if o.build, err = filepath.Abs(o.build); err != nil {
		return 0, err
	}
	e := env{BuildOut: o.build, Cache: o.cache, Nonce: o.nonce}
	all, err := readTasks(e.tasksFile())
	if err != nil {
		return 0, err
	}
	byID := map[string]*task{}
	for _, t := range all {
		byID[t.ID] = t
	}
	doors := findDoors(e, all)

	var attacks []attack
	chosen := map[string]bool{}
	for _, id := range o.tasks {
		t := byID[id]
		if t == nil {
			return 0, fmt.Errorf("%s: no such task in %s", id, e.tasksFile())
		}
		as, err := generate(e, t)
		if err != nil {
			return 0, err
		}
		attacks = append(attacks, as...)
		chosen[id] = true
	}
	if o.doors {
		for _, d := range doors {
			if chosen[d.Task] {
				continue
			}
			chosen[d.Task] = true
			as, err := generate(e, byID[d.Task])
			if err != nil {
				return 0, err
			}
			for _, a := range as {
				if a.Class == classDepCache || a.Name == "control-gold" {
					attacks = append(attacks, a)
				}
			}
		}
	}

	var subset bytes.Buffer
	for _, t := range all {
		if chosen[t.ID] {
			subset.Write(append(t.line, '\n'))
		}
	}
	// The subset of the chosen tasks, beside a link to the build's
	// exported repositories, which eval looks for next to tasks.jsonl.
	tasksFile := filepath.Join(o.out, "tasks.jsonl")
	if err := os.WriteFile(tasksFile, subset.Bytes(), 0o644); err != nil {
		return 0, err
	}
	link := filepath.Join(o.out, "tasks")
	os.Remove(link)
	if err := os.Symlink(filepath.Join(o.build, "tasks"), link); err != nil {
		return 0, err
	}
	if len(o.only) > 0 {
		keep := map[string]bool{}
		for _, n := range o.only {
			keep[n] = true
		}
		kept := attacks[:0]
		for _, a := range attacks {
			if keep[a.Name] {
				kept = append(kept, a)
			}
		}
		attacks = kept
	}
	var now, later []attack
	for _, a := range attacks {
		if a.Later {
			later = append(later, a)
		} else {
			now = append(now, a)
		}
	}
	batches := [][]attack{now, later}
	for i, batch := range batches {
		if err := writePredictions(filepath.Join(o.out, fmt.Sprintf("predictions-%d.jsonl", i+1)), batch); err != nil {
			return 0, err
		}
	}
	if o.generateOnly {
		fmt.Fprintf(os.Stderr, "osbench-redteam: %d predictions in %s\n", len(attacks), o.out)
		return 0, nil
	}
	var results []result
	var timing []string
	for i, batch := range batches {
		if len(batch) == 0 {
			continue
		}
		preds := filepath.Join(o.out, fmt.Sprintf("predictions-%d.jsonl", i+1))
		evalOut := filepath.Join(o.out, fmt.Sprintf("eval-%s-%d", o.nonce, i+1))
		t0 := time.Now()
		if err := osbench(o, "eval", "--tasks", tasksFile, "--predictions", preds, "--out", evalOut); err != nil {
			// Unjudged predictions show as such in the table.
			fmt.Fprintf(os.Stderr, "osbench-redteam: eval %d: %v\n", i+1, err)
		}
		timing = append(timing, fmt.Sprintf("eval %d: %d predictions in %s", i+1, len(batch), time.Since(t0).Round(time.Second)))
		for _, a := range batch {
			results = append(results, readResult(evalOut, a))
		}
	}
	header := fmt.Sprintf("Run %s (nonce %s) at osbench %s, on the cache `%s` with the tasks of `%s`; %s; %s in all.",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), o.nonce, at, o.cache, o.build, strings.Join(timing, ", "), time.Since(started).Round(time.Second))
	if o.note != "" {
		header += " " + o.note
	}
	var page bytes.Buffer
	if err := writeReport(&page, header, results, doors); err != nil {
		return 0, err
	}
	for _, p := range []string{filepath.Join(o.out, "redteam.md"), o.write} {
		if p == "" {
			continue
		}
		if err := os.WriteFile(p, page.Bytes(), 0o644); err != nil {
			return 0, err
		}
	}
	os.Stdout.Write(page.Bytes())
	failed := 0
	for _, r := range results {
		if r.Failed {
			failed++
		}
	}
	return failed, nil
}

// osbench runs the osbench binary with the cache and the global flags.
func osbench(o options, args ...string) error {
	full := append(append([]string{"--cache-dir", o.cache}, o.flags...), args...)
	cmd := exec.Command(o.bin, full...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	fmt.Fprintf(os.Stderr, "osbench-redteam: %s %s\n", o.bin, strings.Join(full, " "))
	return cmd.Run()
}

func writePredictions(path string, attacks []attack) error {
	var b bytes.Buffer
	for _, a := range attacks {
		line, err := json.Marshal(map[string]string{"instance_id": a.Task, "model_name_or_path": a.Name, "model_patch": a.Patch})
		if err != nil {
			return err
		}
		b.Write(append(line, '\n'))
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// commit is the osbench checkout's commit, for the report.
func commit() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "(unknown commit)"
	}
	return strings.TrimSpace(string(out))
}
