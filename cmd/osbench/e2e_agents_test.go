package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/osbench/osbench/internal/fakelm"
)

// miniVenv is the venv of the pinned mini-swe-agent that `make tools`
// installs, "" when it is not there (the scripts that drive it skip).
func miniVenv() string {
	bin := os.Getenv("OSBENCH_MINI_SWE_AGENT")
	if bin == "" {
		home, _ := os.UserHomeDir()
		bin = filepath.Join(home, ".cache", "osbench-tools", "mini-swe-agent-"+fakelm.MiniSWEAgentVersion, "bin", "mini")
	}
	if _, err := os.Stat(bin); err != nil {
		return ""
	}
	return filepath.Dir(filepath.Dir(bin))
}

// codexDir is the npm prefix of the pinned Codex CLI that `make tools`
// installs (its node_modules/.bin/codex), "" when it is not there.
func codexDir() string {
	bin := fakelm.Codex()
	if bin == "" {
		return ""
	}
	return filepath.Dir(filepath.Dir(filepath.Dir(bin)))
}

var (
	lmMu      sync.Mutex
	lmServers = map[*testscript.TestScript]*fakelm.Server{}
)

// agentCmds are the testscript commands of the agent scripts:
//
//	fakelm SCRIPT          start a fake LM (internal/fakelm) replaying SCRIPT, a
//	                       fakelm.Script as JSON in which @FILE@ is FILE's content
//	                       and @WORK@ the script's work dir; $LM is its host:port
//	lmsaw MODEL REGEXP     some command output the agent of MODEL sent its LM
//	                       matches REGEXP
var agentCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"fakelm": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 || neg {
			ts.Fatalf("usage: fakelm SCRIPT")
		}
		text := strings.ReplaceAll(ts.ReadFile(args[0]), "@WORK@", ts.Getenv("WORK"))
		var script fakelm.Script
		ts.Check(json.Unmarshal([]byte(text), &script))
		fill := func(cmds []string) {
			for i, c := range cmds {
				cmds[i] = regexp.MustCompile(`@[\w.-]+@`).ReplaceAllStringFunc(c, func(m string) string {
					return ts.ReadFile(strings.Trim(m, "@"))
				})
			}
		}
		for _, cmds := range script.ByModel {
			fill(cmds)
		}
		fill(script.Default)
		s := fakelm.New(script)
		ts.Defer(s.Close)
		lmMu.Lock()
		lmServers[ts] = s
		lmMu.Unlock()
		ts.Defer(func() {
			lmMu.Lock()
			delete(lmServers, ts)
			lmMu.Unlock()
		})
		ts.Setenv("LM", s.Addr())
	},
	"lmsaw": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: lmsaw MODEL REGEXP")
		}
		lmMu.Lock()
		s := lmServers[ts]
		lmMu.Unlock()
		if s == nil {
			ts.Fatalf("lmsaw: no fakelm started")
		}
		re, err := regexp.Compile(args[1])
		ts.Check(err)
		found := false
		var seen []string
		for _, r := range s.Requests() {
			if r.Model != args[0] {
				continue
			}
			seen = r.Results
			for _, out := range r.Results {
				found = found || re.MatchString(out)
			}
		}
		if found == neg {
			ts.Fatalf("the LM of %s was sent %s output matching %q; its last request held:\n%s",
				args[0], map[bool]string{true: "an", false: "no"}[found], args[1], strings.Join(seen, "\n---\n"))
		}
	},
}

func withAgentCmds(cmds map[string]func(ts *testscript.TestScript, neg bool, args []string)) map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	for name, fn := range agentCmds {
		cmds[name] = fn
	}
	return cmds
}
