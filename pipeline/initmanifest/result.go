package initmanifest

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/osbench/osbench/engine"
)

// Result is what init found.
type Result struct {
	Source Source
	Name   string
	Preset string
	First  []RunSummary // the first look's runs
	Skips  map[string][]Skip
	// OnlyThere are the failing tests that one platform alone runs
	// (FailingWhereOnly): named, not proposed.
	OnlyThere map[string][]Skip
	Again     []RunSummary // the runs with the skips applied (nil when not rerun)
	// StillOneSided are the proposals the rerun would make on top (tests a
	// panic had hidden); they are reported, not added, since adding them
	// changes the runs once more.
	StillOneSided map[string][]Skip
	Directions    []Direction // of the last look
	Worth         bool        // some direction can make a task (Direction.proposable)
	Manifest      *Manifest   // nil when not worth one and not forced
	Text          []byte
	Steps         StepCounts
	Problems      []string // steps that failed
	// TestSwitches are the tree's CMake options that speak of tests
	// (TestSwitches), named when a suite reports no test.
	TestSwitches []string
}

// RunSummary counts one platform's test statuses.
type RunSummary struct {
	Platform string
	Tests    int
	Statuses map[string]int
	// Build is "" when the build passed (or there is none), else how it
	// ended: "the build failed (exit 2)", "the build timed out"; Tail
	// holds its last lines of output.
	Build string
	Tail  []string
	// MissingPrograms are the test programs the runner could not start
	// (not in the build where the programs parameter says): the reason a
	// build that passed reported no test.
	MissingPrograms []string
}

// Direction is one migration direction's differential coverage.
type Direction struct {
	Direction string // "linux->windows"
	Lines     int    // lines executed on the target and not on the source
	Regions   int
	Files     int
	Missing   bool // the diffcov step has no result (a run failed)
	// SourcePasses counts the tests that pass on the source platform: with
	// none, PASS_ON_SOURCE is empty and the direction can make no task, so
	// it is not proposed whatever its lines.
	SourcePasses int
	Source       string // the source platform
}

// proposable reports whether the direction is worth migrating.
func (d Direction) proposable() bool { return !d.Missing && d.Lines > 0 && d.SourcePasses > 0 }

// StepCounts add up every build init made.
type StepCounts struct{ Ran, Hit, Failed, Other int }

func (c *StepCounts) add(s engine.Status) {
	switch s {
	case engine.StatusRan:
		c.Ran++
	case engine.StatusHit:
		c.Hit++
	case engine.StatusFailed:
		c.Failed++
	default:
		c.Other++
	}
}

// WriteSummary writes what a curator reads before the manifest.
func (r *Result) WriteSummary(w io.Writer) {
	fmt.Fprintf(w, "osbench init: %s (preset %q) from %s %s\n", r.Name, r.Preset, r.Source.Kind, r.Source.Value)
	fmt.Fprintln(w, "first look, one run per platform:")
	writeRuns(w, r.First)
	if len(r.Directions) == 0 {
		// No look: the builds failed (below); nothing else to say.
		r.writeEnd(w)
		return
	}
	switch {
	case len(r.Skips) == 0 && len(r.OnlyThere) == 0:
		fmt.Fprintln(w, "no test fails, hangs or crashes on one platform only: no skip proposed")
	case len(r.Skips) == 0:
		fmt.Fprintln(w, "no test fails or hangs on one platform while it passes on the other, nor crashes: no skip proposed")
	}
	if len(r.OnlyThere) > 0 {
		fmt.Fprintln(w, "failing on the only platform that runs them (not proposed: a test failing at the source version is in no task's labels; skip them if they hide coverage):")
		writeSkips(w, r.OnlyThere)
	}
	if len(r.Skips) > 0 {
		fmt.Fprintln(w, "proposed skips — a first look: skipping changes the runs, review them:")
		writeSkips(w, r.Skips)
		if r.Again != nil {
			fmt.Fprintln(w, "re-run with the skips applied:")
			writeRuns(w, r.Again)
			if len(r.StillOneSided) > 0 {
				fmt.Fprintln(w, "still failing on one platform only after the skips (not added; add them if they hold):")
				writeSkips(w, r.StillOneSided)
			}
		} else {
			fmt.Fprintln(w, "not re-run with the skips: a build of the manifest runs those platforms' suites again")
		}
	}
	fmt.Fprintln(w, "one-sided lines (executed on the target, not on the source):")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, d := range r.Directions {
		switch {
		case d.Missing:
			fmt.Fprintf(tw, "  %s\tunknown (a run failed)\t→ not proposed\n", d.Direction)
		case d.Lines == 0:
			fmt.Fprintf(tw, "  %s\t0 lines\t→ not proposed\n", d.Direction)
		case d.SourcePasses == 0:
			fmt.Fprintf(tw, "  %s\t%s in %s (%s)\t→ not proposed: no test passes on %s, the source\n", d.Direction, count(d.Lines, "line"), count(d.Regions, "region"), count(d.Files, "file"), d.Source)
		default:
			fmt.Fprintf(tw, "  %s\t%s in %s (%s)\t→ migrate\n", d.Direction, count(d.Lines, "line"), count(d.Regions, "region"), count(d.Files, "file"))
		}
	}
	tw.Flush()
	r.writeEnd(w)
}

// writeEnd writes the problems, the verdict and the step counts.
func (r *Result) writeEnd(w io.Writer) {
	for _, p := range r.Problems {
		fmt.Fprintln(w, "problem:", p)
	}
	var failed, none, missing, notFound []string
	for _, run := range r.First {
		switch {
		case run.Build != "":
			failed = append(failed, strings.TrimPrefix(run.Build, "the build ")+" on "+run.Platform)
		case run.Tests == 0 && len(run.MissingPrograms) > 0:
			missing = append(missing, run.Platform)
			for _, p := range run.MissingPrograms {
				if !slices.Contains(notFound, p) {
					notFound = append(notFound, p)
				}
			}
		case run.Tests == 0:
			none = append(none, run.Platform)
		}
	}
	switch {
	case len(missing) > 0 && r.Manifest == nil && len(r.Directions) == 0:
		fmt.Fprintf(w, "no manifest: it built, but the test programs %s are not where the programs parameter says on %s; nothing written (a program's path is relative to the build directory: find where the project puts it, e.g. bin/ when it sets CMAKE_RUNTIME_OUTPUT_DIRECTORY, and pass --param programs=PATH)\n", strings.Join(notFound, ", "), strings.Join(missing, " and "))
	case len(none) > 0 && r.Manifest == nil && len(r.Directions) == 0:
		hint := "pass the project's switch: --param cmake_options=-DBUILD_TESTING=ON, or its own, e.g. -D<PROJECT>_BUILD_TESTS=ON"
		if len(r.TestSwitches) > 0 {
			hint = "its CMake options for tests: " + strings.Join(r.TestSwitches, ", ") + "; e.g. --param cmake_options=-D" + r.TestSwitches[0] + "=ON"
		}
		fmt.Fprintf(w, "no manifest: it built, and the suite reported no test on %s; nothing written (tests switched off? %s; a suite CTest does not know: --runner each)\n", strings.Join(none, " and "), hint)
	case len(failed) > 0 && r.Manifest == nil:
		fmt.Fprintf(w, "no manifest: the build %s; nothing written (fix the build: the preset's params, e.g. --param cmake_options=…, --param targets=… to build less, --build-timeout for a slow one; --force writes it anyway when the other platforms built)\n", strings.Join(failed, ", "))
	case !r.Worth && r.Manifest == nil:
		fmt.Fprintln(w, "not worth a manifest: no direction has lines run on its target only and a test passing on its source; nothing written (--force writes it anyway)")
	case !r.Worth:
		fmt.Fprintln(w, "not worth a manifest: no direction has lines run on its target only and a test passing on its source; written anyway (--force)")
	}
	fmt.Fprintf(w, "steps: %d ran, %d cached, %d failed\n", r.Steps.Ran, r.Steps.Hit, r.Steps.Failed)
}

func writeRuns(w io.Writer, runs []RunSummary) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, r := range runs {
		switch {
		case r.Build != "":
			fmt.Fprintf(tw, "  %s\t%s: %s; its last lines:\n", r.Platform, count(r.Tests, "test"), r.Build)
			for _, line := range r.Tail {
				fmt.Fprintf(tw, "  \t  | %s\n", line)
			}
		case r.Tests == 0 && len(r.MissingPrograms) > 0:
			fmt.Fprintf(tw, "  %s\t0 tests: it built, but no test program ran: not found: %s\n", r.Platform, strings.Join(r.MissingPrograms, ", "))
		case r.Tests == 0:
			fmt.Fprintf(tw, "  %s\t0 tests: none — it built, and the suite reported no test (none for this platform, or switched off: see the preset's params)\n", r.Platform)
		default:
			fmt.Fprintf(tw, "  %s\t%s: %s\n", r.Platform, count(r.Tests, "test"), statusCounts(r.Statuses))
		}
	}
	tw.Flush()
}

func statusCounts(m map[string]int) string {
	names := make([]string, 0, len(m))
	for s := range m {
		names = append(names, s)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, s := range names {
		parts[i] = fmt.Sprintf("%d %s", m[s], s)
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func writeSkips(w io.Writer, skips map[string][]Skip) {
	platforms := make([]string, 0, len(skips))
	for p := range skips {
		platforms = append(platforms, p)
	}
	sort.Strings(platforms)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, p := range platforms {
		for _, s := range skips[p] {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", p, s.Test, s.Reason)
		}
	}
	tw.Flush()
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
