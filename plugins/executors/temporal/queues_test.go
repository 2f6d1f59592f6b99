package temporal

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/osbench/osbench/engine"
)

func TestQueueOfNamesEveryFactButThePlatform(t *testing.T) {
	base := map[string]string{"platform": "windows", "executor": "wine 8.0 shim abc linux/amd64 user=unprivileged"}
	with := func(k, v string) map[string]string {
		m := map[string]string{}
		for a, b := range base {
			m[a] = b
		}
		m[k] = v
		return m
	}
	q := QueueOf(&engine.Step{Env: base})
	if !strings.HasPrefix(q, "osbench-windows-") {
		t.Fatalf("queue %q is not named by its platform", q)
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		same bool
	}{
		{"the same facts", with("executor", base["executor"]), true},
		{"another Wine", with("executor", "wine 9.0 shim abc linux/amd64 user=unprivileged"), false},
		{"another privilege mode", with("executor", "wine 8.0 shim abc linux/amd64 user=root home=passwd"), false},
		{"a toolchain step's tools", with("tools", "x86_64-w64-mingw32-gcc -dumpversion: 12-win32"), false},
		{"another platform", with("platform", "linux"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := QueueOf(&engine.Step{Env: tc.env})
			if (got == q) != tc.same {
				t.Errorf("queue %s, base %s: same = %v, want %v", got, q, got == q, tc.same)
			}
		})
	}
}

func TestDirectoryIdentityRoundTrips(t *testing.T) {
	served := []ServedQueue{{Queue: "osbench-linux-aaaaaaaaaaaa"}, {Queue: "osbench-linux-bbbbbbbbbbbb"}}
	id, qs, ok := parseDirectoryIdentity(directoryIdentity("linux-12-host", served))
	if !ok || id != "linux-12-host" || len(qs) != 2 || qs[1] != served[1].Queue {
		t.Errorf("parsed %q %v %v", id, qs, ok)
	}
	if _, _, ok := parseDirectoryIdentity("some-other-poller@host"); ok {
		t.Errorf("a poller that is no osbench worker parsed as one")
	}
}

func TestExplainSaysWhatDiffers(t *testing.T) {
	info := &WorkerInfo{Identity: "w1", Executor: "wine", Queues: []ServedQueue{
		{Env: map[string]string{"executor": "wine 9.0"}},
		{Env: map[string]string{"executor": "wine 9.0", "tools": "gcc 13"}},
	}}
	for _, tc := range []struct {
		name string
		env  map[string]string
		ids  []string
		info *WorkerInfo
		want []string
	}{
		{"no worker", map[string]string{"platform": "windows", "executor": "wine 8.0"}, nil, nil,
			[]string{"no osbench worker for platform windows is connected"}},
		{"other wine", map[string]string{"platform": "windows", "executor": "wine 8.0"}, []string{"w1"}, info,
			[]string{"(w1)", `executor: the step needs "wine 8.0", the worker has "wine 9.0"`}},
		{"other tools", map[string]string{"platform": "windows", "executor": "wine 9.0", "tools": "gcc 12"}, []string{"w1"}, info,
			[]string{`tools: the step needs "gcc 12", the worker has "gcc 13"`}},
		{"no answer", map[string]string{"platform": "windows", "executor": "wine 8.0"}, []string{"w1", "w0"}, nil,
			[]string{"2 live windows worker(s) (w0, w1)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := explain("windows", tc.env, tc.ids, tc.info, nil)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q does not say %q", got, w)
				}
			}
			if strings.Contains(got, "executor: ") && tc.env["executor"] == "wine 9.0" {
				t.Errorf("%q names a fact that matches", got)
			}
		})
	}
}

// A worker running windows natively (executor local) probes its native
// tools: its toolchain queues and facts carry gcc's and cmake's versions,
// never Wine's or the cross compiler's, which a real Windows machine has
// not. (Run here on Linux, where the same commands answer.)
func TestServedQueuesProbeTheExecutorsTools(t *testing.T) {
	for _, tool := range []string{"gcc", "cmake"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	served, facts, err := servedQueues(context.Background(), "windows", "local", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := facts[""].Tools["c"]
	if !strings.HasPrefix(c, "gcc -dumpfullversion: ") || !strings.Contains(c, "cmake --version: cmake version ") || strings.Contains(c, "wine") || strings.Contains(c, "mingw32") {
		t.Errorf("c tools of a local windows worker: %q", c)
	}
	found := false
	for _, sq := range served {
		if sq.Env["tools"] == c && sq.Env["executor"] == facts[""].Executor {
			found = true
		}
	}
	if !found {
		t.Errorf("no served queue carries the facts it publishes: %+v", served)
	}
}
