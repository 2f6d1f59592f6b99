package temporal

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
)

// A client keys each step with the facts of the machine that will run it:
// the executor's fingerprint and, on toolchain steps, the installed tools'.
// It computes them itself where it can (its own executors), but a Linux
// client cannot fingerprint a real Windows machine's executor or tools. It
// then learns them from the workers that will run the steps: each worker of
// a platform and executor polls the directory osbench-<platform>-workers-
// <executor> under an identity that lists its queues, and answers there
// with the facts they are named after (WorkerInfo.Facts). Keyed with those
// facts, the client's steps go to exactly the queues those workers poll,
// and their keys are the ones the workers recompute.

// PlatformFacts are the facts of one platform and executor as its live
// workers computed them.
type PlatformFacts struct {
	Platform, Executor string
	// Workers are the live workers that agree on them, sorted.
	Workers []string
	// Answered is the worker that described them.
	Answered string
	Facts    map[string]UserFacts // by run user
}

// ExecutorFingerprint is the executor's fingerprint for a run user.
func (f *PlatformFacts) ExecutorFingerprint(user string) (string, error) {
	uf, ok := f.Facts[user]
	if !ok {
		return "", fmt.Errorf("the %s workers with executor %s (%s) publish no facts for run user %q", f.Platform, f.Executor, strings.Join(f.Workers, ", "), user)
	}
	return uf.Executor, nil
}

// Tools is the tools' fingerprint of a language for a run user, "" for a
// language the workers probe nothing of.
func (f *PlatformFacts) Tools(user, language string) (string, error) {
	uf, ok := f.Facts[user]
	if !ok {
		return "", fmt.Errorf("the %s workers with executor %s (%s) publish no facts for run user %q", f.Platform, f.Executor, strings.Join(f.Workers, ", "), user)
	}
	return uf.Tools[language], nil
}

// String names the facts' source, for logs.
func (f *PlatformFacts) String() string {
	return fmt.Sprintf("%s/%s from worker %s (%d live agree: %s)", f.Platform, f.Executor, f.Answered, len(f.Workers), strings.Join(f.Workers, ", "))
}

// WorkerFacts asks the live workers of platform with executor for the
// facts to key that platform's steps with. It waits up to the
// dispatcher's NoWorkerTimeout for one to be live; it fails, naming them,
// when the live ones disagree (another Wine, another gcc: their queues
// differ, so no one key reaches all of them).
func (d *Dispatcher) WorkerFacts(ctx context.Context, platform, executor string) (*PlatformFacts, error) {
	dir := executorDirectoryQueue(platform, executor)
	start := time.Now()
	warned := false
	var live []liveWorker
	for {
		ws, err := d.watch.workersOn(ctx, dir)
		if err != nil {
			return nil, fmt.Errorf("temporal %s: who polls %s: %w", d.o.HostPort, dir, err)
		}
		if len(ws) > 0 {
			live = ws
			break
		}
		if time.Since(start) >= d.o.NoWorkerTimeout {
			return nil, fmt.Errorf("no live osbench worker for platform %s with executor %s (none polls %s after %s), so this client cannot learn the facts to key %s's steps with: start one (osbench worker --platform %s --executor %s --temporal %s), or let this machine fingerprint %s itself (--fingerprints-from %s=client)",
				platform, executor, dir, d.o.NoWorkerTimeout, platform, platform, executor, d.o.HostPort, platform, platform)
		}
		if !warned {
			warned = true
			d.o.Log.Warn().Str("platform", platform).Str("executor", executor).
				Msgf("no live %s worker with executor %s yet to take %s's facts from; waiting up to %s", platform, executor, platform, d.o.NoWorkerTimeout)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
		d.watch.forget(dir)
	}
	agreed, err := agreement(platform, executor, live)
	if err != nil {
		return nil, err
	}
	actx, done := context.WithTimeout(ctx, 30*time.Second)
	defer done()
	info, err := d.askWorker(actx, dir)
	if err != nil {
		return nil, fmt.Errorf("the live %s workers with executor %s (%s) did not describe their facts: %w", platform, executor, strings.Join(identities(live), ", "), err)
	}
	if err := checkInfo(platform, executor, info, agreed); err != nil {
		return nil, err
	}
	return &PlatformFacts{Platform: platform, Executor: executor, Workers: identities(live), Answered: info.Identity, Facts: info.Facts}, nil
}

// agreement returns the queues every live worker serves, or an error
// naming the groups of workers whose queues differ.
func agreement(platform, executor string, live []liveWorker) ([]string, error) {
	groups := map[string][]string{} // sorted queue list → identities
	queuesOf := map[string][]string{}
	for _, w := range live {
		qs := make([]string, 0, len(w.queues))
		for q := range w.queues {
			qs = append(qs, q)
		}
		sort.Strings(qs)
		k := strings.Join(qs, ",")
		groups[k] = append(groups[k], w.identity)
		queuesOf[k] = qs
	}
	if len(groups) == 1 {
		for k := range groups {
			return queuesOf[k], nil
		}
	}
	keys := make([]string, 0, len(groups))
	common := map[string]int{} // queue → how many groups serve it
	for k := range groups {
		sort.Strings(groups[k])
		keys = append(keys, k)
		for _, q := range queuesOf[k] {
			common[q]++
		}
	}
	sort.Slice(keys, func(i, j int) bool { return groups[keys[i]][0] < groups[keys[j]][0] })
	var parts []string
	for _, k := range keys {
		// What sets the group apart: the queues not every group serves.
		var own []string
		for _, q := range queuesOf[k] {
			if common[q] < len(groups) {
				own = append(own, q)
			}
		}
		if len(own) == 0 {
			own = []string{"no queue the others lack"}
		}
		verb := "serve"
		if len(groups[k]) == 1 {
			verb = "serves"
		}
		parts = append(parts, fmt.Sprintf("%s %s %s", strings.Join(groups[k], ", "), verb, strings.Join(own, " ")))
	}
	return nil, fmt.Errorf("the %d live %s workers with executor %s disagree on their facts (other tools or another executor version: their queues differ), so no key of this client reaches them all: %s; give them the same tools and restart them, or stop the odd ones",
		len(live), platform, executor, strings.Join(parts, "; "))
}

// checkInfo checks that the worker that answered is one of those agreed
// on: its platform, executor and queues.
func checkInfo(platform, executor string, info *WorkerInfo, agreed []string) error {
	if info.Platform != platform || info.Executor != executor {
		return fmt.Errorf("worker %s answered on the directory of %s/%s but runs %s/%s", info.Identity, platform, executor, info.Platform, info.Executor)
	}
	if len(info.Facts) == 0 {
		return fmt.Errorf("worker %s (%s, executor %s) publishes no facts: an osbench older than this client; upgrade it", info.Identity, platform, executor)
	}
	served := make([]string, len(info.Queues))
	for i, sq := range info.Queues {
		served[i] = sq.Queue
	}
	sort.Strings(served)
	if strings.Join(served, ",") != strings.Join(agreed, ",") {
		return fmt.Errorf("worker %s (%s, executor %s) describes queues %s, but the live workers poll %s: a worker restarted with other tools meanwhile? try again", info.Identity, platform, executor, strings.Join(served, " "), strings.Join(agreed, " "))
	}
	// The facts must name the queues it serves: what the client keys with
	// is what routes the steps to it.
	want := map[string]bool{}
	for _, q := range agreed {
		want[q] = true
	}
	for user, uf := range info.Facts {
		if q := Queue(platform, Fingerprint(map[string]string{"executor": uf.Executor})); !want[q] {
			return fmt.Errorf("worker %s: the facts of run user %q name queue %s, which it does not serve", info.Identity, user, q)
		}
		for lang, tools := range uf.Tools {
			if q := Queue(platform, Fingerprint(map[string]string{"executor": uf.Executor, "tools": tools})); !want[q] {
				return fmt.Errorf("worker %s: the %s tools of run user %q name queue %s, which it does not serve", info.Identity, lang, user, q)
			}
		}
	}
	return nil
}

func identities(ws []liveWorker) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.identity
	}
	sort.Strings(out)
	return out
}
