package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// bigFigures are what one test printing a lot did to osbench.
type bigFigures struct {
	OutputBytes int64
	Code        int
	StepStatus  string // from build-steps.json
	StepLabel   string
	LogBytes    int64 // the exported test.log
	Truncated   bool  // the log ends with osbench's truncation marker
	PeakRSS     int64 // osbench's VmHWM
	MaxRSS      int64 // ru_maxrss of osbench (and its waited-for children)
	Wall        time.Duration
}

const bigScript = `yes 'osbench reliability: one line of output printed again and again until the test has printed enough' | head -c %d
echo
printf '{"Action":"pass","Package":"example.com/big","Test":"TestBig"}\n'
`

// bigOutput builds one repository whose test prints n bytes of plain
// lines, then one passing test event.
func (h *harness) bigOutput(n int64) (*bigFigures, error) {
	dir := filepath.Join(h.scratch, "big")
	if err := writeStressManifest(dir, "big", fmt.Sprintf(bigScript, n), "20m"); err != nil {
		return nil, err
	}
	cache := filepath.Join(h.scratch, "big-cache")
	out := filepath.Join(h.scratch, "big-out")
	args := []string{"--cache-dir", cache, "--platform", "linux", "--log-level", "warn", "build", "--out", out, dir}
	r := h.rn.runWith(runOpts{killAfter: -1, sampleRSS: true}, args...)
	fig := &bigFigures{OutputBytes: n, Code: r.Code, PeakRSS: r.PeakRSS, MaxRSS: r.MaxRSS, Wall: r.Wall}
	steps, _ := readBuildSteps(filepath.Join(out, "build-steps.json"))
	s, ok := steps["big/linux/test"]
	if !ok {
		return nil, fmt.Errorf("big output: no test step in build-steps.json: %s\n%s", r.brief(), tail(r.Stderr))
	}
	fig.StepStatus, fig.StepLabel = s.Status, s.Label
	if b, err := os.ReadFile(filepath.Join(out, "runs", "big", "linux", "test.log")); err == nil {
		fig.LogBytes = int64(len(b))
		// The cap keeps the log's head and tail with the marker between.
		fig.Truncated = strings.Contains(string(b), "[osbench: output truncated")
	}
	os.RemoveAll(cache)
	os.RemoveAll(out)
	return fig, nil
}

// escapeRow is one way a test leaves a process behind.
type escapeRow struct {
	Style      string
	Ending     string // how the step ended: "timeout" or "passed"
	Started    int    // escapees that started (each writes its pid first)
	Left       int    // alive after osbench exited
	StepStatus string
	StepWall   time.Duration
}

// escapeFigures are the process-escape measures.
type escapeFigures struct {
	ProbePlanted, ProbeCounted int // the counter's self-check
	Timeout                    time.Duration
	Rows                       []escapeRow
}

// The escapee only sleeps, in a shell loop, so its command line (sh and
// the script's name, which carries the marker) stays the same all its
// life; it first writes its pid where the harness counts starts, then lets
// go of the test's output unless told to keep it.
const escapeeScript = `echo $$ >> %[1]s
[ "$1" = keep-output ] || exec >/dev/null 2>&1 </dev/null
i=0
while [ $i -lt %[2]d ]; do sleep 1; i=$((i+1)); done
`

// escapeStyles launch the escapee ($ESC: "sh esc-….sh", which sends its
// output to /dev/null; $ESCOUT keeps the test's stdout open) in the ways
// tests do.
var escapeStyles = []struct{ name, launch string }{
	{"background child", "$ESC &"},
	{"setsid", "setsid $ESC &"},
	{"double fork", "( $ESC & )"},
	{"ignores SIGTERM", "( trap '' TERM HUP INT; exec $ESC ) &"},
	{"setsid + double fork + ignores SIGTERM", "setsid sh -c \"trap '' TERM HUP INT; $ESC &\" &"},
	{"background, keeps stdout open", "$ESCOUT &"},
	{"setsid, keeps stdout open", "setsid $ESCOUT &"},
}

const escapeRunScript = `ESC='sh %[1]s'
ESCOUT='sh %[1]s keep-output'
%[2]s
sleep 1
printf 'escapees started: %%s\n' "$(cat escapee-started 2>/dev/null)" >&2
%[3]s
`

// escapes builds one repository per style and ending: the test starts an
// escapee, then either hangs until its timeout or passes at once. After
// osbench has exited (and a moment for signals to land) the harness counts
// the escapees still alive by the marker in their command line, then kills
// them.
func (h *harness) escapes() (*escapeFigures, error) {
	const timeout = 3 * time.Second
	const lifetime = 40 // seconds an escapee lives if nothing kills it
	fig := &escapeFigures{Timeout: timeout}
	dir := filepath.Join(h.scratch, "escape")
	// The escapees say they started in the test's own directory, and the
	// test copies that into its log (exported to --out): a step sees
	// neither the host's /tmp (a private tmpfs) nor the harness's files.
	cache := filepath.Join(h.scratch, "escape-cache")

	// Self-check: an escapee started by the harness itself is counted.
	probe := fmt.Sprintf("relesc%dprobe", h.cfg.Seed)
	probeScript := filepath.Join(h.scratch, "esc-"+probe+".sh")
	if err := os.WriteFile(probeScript, []byte(fmt.Sprintf(escapeeScript, filepath.Join(h.scratch, probe+".started"), lifetime)), 0o644); err != nil {
		return nil, err
	}
	pc := exec.Command("sh", probeScript)
	pc.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := pc.Start(); err != nil {
		return nil, err
	}
	fig.ProbePlanted = 1
	time.Sleep(300 * time.Millisecond)
	fig.ProbeCounted = len(processesWith("esc-" + probe + ".sh"))
	pc.Process.Kill()
	pc.Wait()

	type repo struct {
		name, marker, style, ending string
	}
	var repos []repo
	for si, st := range escapeStyles {
		for _, ending := range []string{"timeout", "passed"} {
			name := fmt.Sprintf("esc%d-%s", si, ending)
			marker := fmt.Sprintf("relesc%d-%d-%s", h.cfg.Seed, si, ending)
			end := `printf '{"Action":"pass","Package":"example.com/esc","Test":"TestEscape"}\n'`
			if ending == "timeout" {
				end = "exec sleep 600"
			}
			script := fmt.Sprintf(escapeRunScript, "esc-"+marker+".sh", st.launch, end)
			if err := writeStressManifest(dir, name, script, timeout.String()); err != nil {
				return nil, err
			}
			body := fmt.Sprintf(escapeeScript, "escapee-started", lifetime)
			if err := os.WriteFile(filepath.Join(dir, "src", name, "esc-"+marker+".sh"), []byte(body), 0o644); err != nil {
				return nil, err
			}
			repos = append(repos, repo{name, marker, st.name, ending})
		}
	}
	out := filepath.Join(h.scratch, "escape-out")
	args := []string{"--cache-dir", cache, "-j", fmt.Sprint(len(repos)), "--platform", "linux", "--log-level", "warn", "build", "--out", out, dir}
	res := h.rn.runWith(runOpts{killAfter: -1, leaveGroup: true}, args...)
	time.Sleep(1500 * time.Millisecond)
	steps, _ := readBuildSteps(filepath.Join(out, "build-steps.json"))
	for _, r := range repos {
		row := escapeRow{Style: r.style, Ending: r.ending}
		if b, err := os.ReadFile(filepath.Join(out, "runs", r.name, "linux", "test.log")); err == nil {
			for line := range strings.Lines(string(b)) {
				if rest, ok := strings.CutPrefix(line, "escapees started:"); ok {
					row.Started = len(strings.Fields(rest))
				}
			}
		}
		pids := processesWith("esc-" + r.marker + ".sh")
		row.Left = len(pids)
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		s, ok := steps[r.name+"/linux/test"]
		if !ok {
			return nil, fmt.Errorf("escapes: no step %s/linux/test in build-steps.json: %s\n%s", r.name, res.brief(), tail(res.Stderr))
		}
		row.StepStatus, row.StepWall = s.Status, time.Duration(s.DurationNS)
		if s.Label != "" {
			row.StepStatus += " (" + s.Label + ")"
		}
		fig.Rows = append(fig.Rows, row)
	}
	os.RemoveAll(cache)
	return fig, nil
}

type buildStep struct {
	ID         string `json:"id"`
	Status     string `json:"status"`
	Label      string `json:"label"`
	DurationNS int64  `json:"duration_ns"`
	// Infra and Retries: an infrastructure failure's cause and the
	// attempts before the last (engine.StepResult).
	Infra   string            `json:"infra"`
	Retries []json.RawMessage `json:"retries"`
	// Verify is a hit's rerun under --verify-cache: "same", "differs: …"
	// or "rerun failed: …" (engine.StepResult.Verify).
	Verify string `json:"verify"`
	// Reason is why the step ran or did not.
	Reason string `json:"reason"`
}

// readBuildSteps reads build --out's build-steps.json by step id.
func readBuildSteps(path string) (map[string]buildStep, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Steps []buildStep `json:"steps"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	m := map[string]buildStep{}
	for _, s := range doc.Steps {
		m[s.ID] = s
	}
	return m, nil
}

// tail keeps the end of long output for error messages.
func tail(s string) string {
	const max = 2000
	if len(s) > max {
		return "…" + s[len(s)-max:]
	}
	return s
}
