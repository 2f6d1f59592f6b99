// Package regex is the regex runner: any runner whose output a manifest
// describes with a line pattern (the regex parser and the manifest's regex
// block). Its output has no shape osbench knows, so the tamper scan has no
// pattern for it, and it leaves no evidence.
package regex

import (
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
)

// Name is the runner's name.
const Name = "regex"

func init() {
	runner.Register(&runner.Runner{
		Name:      Name,
		Version:   "1",
		Parser:    parsers.NameRegex,
		SkipStyle: runner.NoSkipStyle,
		Sample: runner.Sample{
			Output: "[OK] paths.joins (3 ms)\n[FAILED] paths.splits\n",
			Options: parsers.Options{Regex: &parsers.RegexOptions{
				Pattern:  `^\[(?P<status>\w+)\] (?P<id>.+?)(?: \(\d+ ms\))?$`,
				Statuses: map[string]string{"OK": "pass", "FAILED": "fail"},
			}},
			IDs: []string{"paths.joins", "paths.splits"},
		},
		Output:     runner.NoOutput,
		Started:    runner.NoStartMark,
		Rewritable: runner.NoneRewritable,
		Known:      runner.KnowsNone,
		Launch:     runner.NoLaunch,
		Expected:   runner.NoExpected,
		Evidence:   runner.NoEvidence,
	})
}
