package schemas

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
