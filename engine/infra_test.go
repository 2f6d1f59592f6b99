package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/osbench/osbench/engine/cache"
)

// infraKind fails its first config "infra_failures" attempts as
// infrastructure (or for good with "code"); with "fill" it writes that many
// MiB into its work dir, which fails for real on a full disk.
type infraKind struct {
	mu       sync.Mutex
	attempts map[string]int
}

func (k *infraKind) Name() string    { return "test.infra" }
func (k *infraKind) Version() string { return "1" }
func (k *infraKind) Run(ctx context.Context, rc *RunContext) error {
	var cfg struct {
		InfraFailures int    `json:"infra_failures"`
		Code          bool   `json:"code"`
		Fill          int    `json:"fill"`
		Text          string `json:"text"`
	}
	if err := rc.DecodeConfig(&cfg); err != nil {
		return err
	}
	k.mu.Lock()
	k.attempts[rc.Step.ID]++
	n := k.attempts[rc.Step.ID]
	k.mu.Unlock()
	switch {
	case cfg.Code:
		return errors.New("the code is wrong")
	case n <= cfg.InfraFailures:
		return Infra("lost wineserver", fmt.Errorf("attempt %d: wineserver went away", n))
	}
	if cfg.Fill > 0 {
		f, err := os.Create(filepath.Join(rc.WorkDir, "big"))
		if err != nil {
			return err
		}
		defer f.Close()
		chunk := make([]byte, 1<<20)
		for i := 0; i < cfg.Fill; i++ {
			if _, err := f.Write(chunk); err != nil {
				return fmt.Errorf("writing the big file: %w", err)
			}
		}
	}
	return rc.PutBytes("text", []byte(cfg.Text))
}

func (k *infraKind) count(id string) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.attempts[id]
}

var kInfra = &infraKind{attempts: map[string]int{}}

func init() { RegisterKind(kInfra) }

func infraStep(id string, fields map[string]any) *Step {
	s := &Step{ID: id, Kind: "test.infra", Group: id, Env: map[string]string{"platform": "linux"}}
	setField(s, "text", id)
	for k, v := range fields {
		setField(s, k, v)
	}
	return s
}

func TestInfraFailuresAreRetriedAndNeverCached(t *testing.T) {
	tests := []struct {
		name         string
		fields       map[string]any
		retries      int // Options.InfraRetries
		wantStatus   Status
		wantAttempts int
		wantInfra    string
		wantCached   bool
	}{
		{"recovers on the third attempt", map[string]any{"infra_failures": 2}, 2, StatusRan, 3, "", true},
		{"fails every attempt", map[string]any{"infra_failures": 9}, 2, StatusFailed, 3, "lost wineserver", false},
		{"retries off", map[string]any{"infra_failures": 1}, -1, StatusFailed, 1, "lost wineserver", false},
		{"the code's failure is not retried", map[string]any{"code": true}, 2, StatusFailed, 1, "", false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			c, err := cache.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			e := New(c, Options{Jobs: 1, KeepGoing: true, InfraRetries: tt.retries, InfraBackoff: time.Millisecond})
			id := fmt.Sprintf("infra-%d", i)
			rep := build(t, e, infraStep(id, tt.fields))
			r := rep.Step(id)
			if r.Status != tt.wantStatus || r.Infra != tt.wantInfra {
				t.Fatalf("status %s, infra %q (error %q); want %s, %q", r.Status, r.Infra, r.Error, tt.wantStatus, tt.wantInfra)
			}
			if got := kInfra.count(id); got != tt.wantAttempts {
				t.Errorf("%d attempts, want %d", got, tt.wantAttempts)
			}
			if len(r.Retries) != tt.wantAttempts-1 {
				t.Errorf("%d retries reported, want %d: %+v", len(r.Retries), tt.wantAttempts-1, r.Retries)
			}
			if tt.wantInfra != "" && !strings.Contains(r.Reason, "not cached") {
				t.Errorf("reason %q does not say the failure is not cached", r.Reason)
			}
			rec, err := c.GetAction(r.Key)
			cached := err == nil && !rec.Failed
			if cached != tt.wantCached {
				t.Errorf("cached = %v, want %v", cached, tt.wantCached)
			}
			if sum := rep.Summary(); tt.wantInfra != "" && (sum.Infra != 1 || !strings.Contains(sum.Line(), "infrastructure")) {
				t.Errorf("summary %+v / %q does not count the infrastructure failure", sum, sum.Line())
			}
			// The trace carries the cause and the retries.
			trace, err := os.ReadFile(e.TracePath(rep.RunID))
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Retries) > 0 && !strings.Contains(string(trace), `"retries":[{"attempt":1,"cause":"lost wineserver"`) {
				t.Errorf("trace does not show the retries: %s", trace)
			}
		})
	}
}

// TestFullDiskIsInfrastructure fills a real tmpfs holding the cache: the
// step's write fails with ENOSPC, which is infrastructure (retried, not
// cached, the cause reported); with room again the same build completes.
func TestFullDiskIsInfrastructure(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "osbench-test-full", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	c, err := cache.Open(filepath.Join(dir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	e := New(c, Options{Jobs: 1, KeepGoing: true, InfraRetries: 1, InfraBackoff: time.Millisecond})
	step := infraStep("fill", map[string]any{"fill": 16})
	rep := build(t, e, step)
	r := rep.Step("fill")
	if r.Status != StatusFailed || r.Infra != CauseNoSpace || len(r.Retries) != 1 {
		t.Fatalf("status %s, infra %q, %d retries (error %q); want failed, %q, 1 retry", r.Status, r.Infra, len(r.Retries), r.Error, CauseNoSpace)
	}
	if rec, err := c.GetAction(r.Key); err == nil && !rec.Failed {
		t.Fatal("a run that hit a full disk was cached as a result")
	}
	// The machine is healthy again: the rerun runs the step and succeeds.
	if out, err := exec.Command("mount", "-o", "remount,size=64m", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v: %s", err, out)
	}
	rep = build(t, e, step)
	if r := rep.Step("fill"); r.Status != StatusRan {
		t.Fatalf("rerun with room: status %s (%s), want ran", r.Status, r.Error)
	}
}

func TestInfraCauseCrossesTheWire(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{Infra("lost wineserver", errors.New("x")), "lost wineserver"},
		{fmt.Errorf("worker: %w", Infra("lost wineserver", nil)), "lost wineserver"},
		{errors.New("activity failed: infrastructure failure (no space left on device): write: x"), "no space left on device"},
		{fmt.Errorf("writing: %w", syscall.ENOSPC), CauseNoSpace},
		{fmt.Errorf("local executor: sh stopped: past the disk limit: %w", syscall.EDQUOT), CauseDiskQuota},
		{errors.New("test command exited 1 and reported no test"), ""},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := InfraCause(tt.err); got != tt.want {
			t.Errorf("InfraCause(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
