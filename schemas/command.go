package schemas

import (
	"errors"
	"fmt"
	"strings"
)

// Command is a command of a step's configuration — a test, build or
// build-check command: an argv, or a script for an explicit shell, run in
// Dir (slash-separated, relative to the repository root).
type Command struct {
	Argv  []string `json:"argv"`
	Shell string   `json:"shell,omitempty"`
	Dir   string   `json:"dir,omitempty"`
}

// WorkToken stands for the absolute work directory in what a step stores
// from a run (raw coverage files, build logs), so the same run in another
// directory gives the same bytes (and digest).
const WorkToken = "$WORK"

// ExecArgv is the argv an executor runs for c: the argv itself, or the
// script handed to its shell (bash fails on the first failing command or
// pipe stage).
func (c Command) ExecArgv() ([]string, error) {
	switch c.Shell {
	case "":
		if len(c.Argv) == 0 {
			return nil, errors.New("empty command")
		}
		return c.Argv, nil
	case "bash":
		return []string{"bash", "-eo", "pipefail", "-c", strings.Join(c.Argv, "\n")}, nil
	case "pwsh":
		return []string{"pwsh", "-NoProfile", "-NonInteractive", "-Command", strings.Join(c.Argv, "\n")}, nil
	case "cmd":
		return []string{"cmd", "/c", strings.Join(c.Argv, " & ")}, nil
	}
	return nil, fmt.Errorf("unknown shell %q", c.Shell)
}
