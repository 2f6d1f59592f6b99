package temporal

import (
	"strings"
	"testing"
)

func TestWorkersMustAgreeOnTheirFacts(t *testing.T) {
	lw := func(id string, qs ...string) liveWorker {
		w := liveWorker{identity: id, queues: map[string]bool{}}
		for _, q := range qs {
			w.queues[q] = true
		}
		return w
	}
	for _, tc := range []struct {
		name    string
		live    []liveWorker
		want    string // agreed queues, or a substring of the error
		wantErr bool
	}{
		{"one worker", []liveWorker{lw("w1", "q2", "q1")}, "q1,q2", false},
		{"two alike", []liveWorker{lw("w1", "q1", "q2"), lw("w2", "q2", "q1")}, "q1,q2", false},
		{"one differs", []liveWorker{lw("w1", "q1", "q2"), lw("w3", "q1", "q3"), lw("w2", "q1", "q2")},
			"the 3 live windows workers with executor local disagree on their facts (other tools or another executor version: their queues differ), so no key of this client reaches them all: w1, w2 serve q2; w3 serves q3", true},
		{"one serves more", []liveWorker{lw("w1", "q1"), lw("w2", "q1", "q2")}, "w1 serves no queue the others lack; w2 serves q2", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := agreement("windows", "local", tc.live)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil || strings.Join(got, ",") != tc.want {
				t.Errorf("agreed %v (%v), want %s", got, err, tc.want)
			}
		})
	}
}

// The facts a worker describes must name the queues it serves: they are
// what the client keys with, so what routes the steps to it.
func TestDescribedFactsNameTheServedQueues(t *testing.T) {
	env := map[string]string{"executor": "local windows/amd64 user=unprivileged"}
	toolsEnv := map[string]string{"executor": env["executor"], "tools": "gcc -dumpfullversion: 13.2.0"}
	served := []ServedQueue{{Queue: Queue("windows", Fingerprint(env)), Env: env}, {Queue: Queue("windows", Fingerprint(toolsEnv)), Env: toolsEnv}}
	agreed := []string{served[0].Queue, served[1].Queue}
	if agreed[0] > agreed[1] {
		agreed[0], agreed[1] = agreed[1], agreed[0]
	}
	good := map[string]UserFacts{"": {Executor: env["executor"], Tools: map[string]string{"c": toolsEnv["tools"]}}}
	for _, tc := range []struct {
		name string
		info WorkerInfo
		want string // "" for no error
	}{
		{"as served", WorkerInfo{Identity: "w1", Platform: "windows", Executor: "local", Queues: served, Facts: good}, ""},
		{"another executor", WorkerInfo{Identity: "w1", Platform: "windows", Executor: "wine", Queues: served, Facts: good}, "runs windows/wine"},
		{"an old worker", WorkerInfo{Identity: "w1", Platform: "windows", Executor: "local", Queues: served}, "publishes no facts"},
		{"other tools", WorkerInfo{Identity: "w1", Platform: "windows", Executor: "local", Queues: served,
			Facts: map[string]UserFacts{"": {Executor: env["executor"], Tools: map[string]string{"c": "gcc -dumpfullversion: 14.1.0"}}}}, "the c tools"},
		{"other queues", WorkerInfo{Identity: "w1", Platform: "windows", Executor: "local", Queues: served[:1], Facts: good}, "describes queues"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkInfo("windows", "local", &tc.info, agreed)
			if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	f := &PlatformFacts{Platform: "windows", Executor: "local", Workers: []string{"w1"}, Facts: good}
	if fp, err := f.ExecutorFingerprint(""); err != nil || fp != env["executor"] {
		t.Errorf("executor fingerprint %q, %v", fp, err)
	}
	if tools, err := f.Tools("", "go"); err != nil || tools != "" {
		t.Errorf("tools of go %q, %v: want none", tools, err)
	}
	if _, err := f.ExecutorFingerprint("root"); err == nil || !strings.Contains(err.Error(), `run user "root"`) {
		t.Errorf("a run user without facts: %v", err)
	}
}
