package agentsolve

import (
	"bytes"
	"strings"
	"text/template"
)

// InstructionVersion names the instruction template below; it is part of
// every solve step's configuration, so changing the text (and bumping
// this) re-solves every task, while an unchanged template never does.
const InstructionVersion = "2"

// The instruction is what the paper's evaluation tells an agent: the
// task's problem statement (which says nothing of where code was
// removed), the migration direction, the objective (the target's tests pass, the
// source's keep passing), what it must not do, and how to build and test.
var instructionTemplate = template.Must(template.New("instruction").Parse(`# Task {{.InstanceID}}

{{.ProblemStatement}}
Your job: make the repository's tests pass on {{.Target}} without breaking
{{.Source}} (a migration from {{.Source}} to {{.Target}}).

Rules:
- Do not edit, add or delete test files ({{.TestFileRule}}); osbench drops such
  changes from your patch, and the tests that judge it are the task's own.
- Do not use git to fetch or rewrite history; the workspace has one commit.
- Your changes are taken from the files in this directory when you exit;
  you need not commit them. Files larger than {{.MaxFileBytes}} bytes are refused.
{{- if .MaxSteps}}
- You have at most {{.MaxSteps}} steps.
{{- end}}

How the target's tests are run ({{.Target}}, from the repository root):

    {{.TargetTest}}
{{if .TargetIsHost}}
This machine is {{.Target}}: you can run that command here.
{{- else if .TargetRun}}
This machine is not {{.Target}}: that command does not run here directly.
{{- else}}
This machine is not {{.Target}}; no command here runs the {{.Target}} tests.
{{- end}}
{{- if .TargetRun}}
` + "`osbench-target test`" + ` (on your PATH) runs the task's build and that command on
{{.Target}} ({{.TargetRun}}) on a copy of this directory as it is then, prints
their output and exits with their status; ` + "`osbench-target build`" + ` only builds.
{{- end}}
`))

// instructionFacts are the values the template reads.
type instructionFacts struct {
	InstanceID, ProblemStatement string
	Source, Target               string
	TestFileRule                 string
	MaxFileBytes                 int64
	MaxSteps                     int
	TargetTest                   string
	TargetIsHost                 bool
	TargetRun                    string // how osbench-target runs them; "" without it
}

// Instruction renders the instruction of a solve step's configuration. It
// depends on the configuration alone (the host platform is part of it), so
// the text is a function of the key.
func Instruction(cfg Config) (string, error) {
	f := instructionFacts{
		InstanceID: cfg.InstanceID, ProblemStatement: strings.TrimRight(cfg.ProblemStatement, "\n") + "\n",
		Source: cfg.Source, Target: cfg.Target,
		TestFileRule: "files such as *_test.go, test_*.c, tests/…", MaxFileBytes: cfg.MaxFileBytes,
		MaxSteps: cfg.Agent.Steps, TargetTest: strings.Join(cfg.TargetTest, " "),
		TargetIsHost: cfg.Target == cfg.Host,
	}
	if r := cfg.TargetRun; r != nil {
		f.TargetRun = "through the " + r.Executor + " executor"
	}
	var b bytes.Buffer
	if err := instructionTemplate.Execute(&b, f); err != nil {
		return "", err
	}
	return b.String(), nil
}
