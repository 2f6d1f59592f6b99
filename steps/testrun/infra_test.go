package testrun

import (
	"reflect"
	"syscall"
	"testing"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/executors"
)

func TestMachineFailureClasses(t *testing.T) {
	tests := []struct {
		name       string
		output     string
		res        executors.Result
		oom        [2]int64
		wine       bool
		wantCause  string
		wantStarts bool
	}{
		{"SIGKILL of the command, no timeout", "", executors.Result{ExitCode: -1, Signal: int(syscall.SIGKILL)}, [2]int64{0, 0}, false, CauseKilled, false},
		{"SIGSEGV of the command is the code's", "", executors.Result{ExitCode: -1, Signal: int(syscall.SIGSEGV)}, [2]int64{0, 0}, false, "", false},
		{"a test binary killed while the kernel counted an OOM kill", `{"Action":"run","Test":"TestA"}` + "\n" + `{"Action":"output","Output":"signal: killed\n"}` + "\n", executors.Result{ExitCode: 1}, [2]int64{3, 4}, false, CauseOOM, true},
		{"a test binary killed without an OOM kill is the code's", `{"Action":"output","Output":"signal: killed\n"}` + "\n", executors.Result{ExitCode: 1}, [2]int64{3, 3}, false, "", false},
		{"wineserver lost", "wine client error:1c: read: Connection reset by peer\n", executors.Result{ExitCode: 1}, [2]int64{-1, -1}, true, CauseWine, false},
		{"Wine's words outside Wine are the code's", "wine client error:1c: read: Connection reset by peer\n", executors.Result{ExitCode: 1}, [2]int64{-1, -1}, false, "", false},
		{"prefix not owned", "wine: '/var/cache/osbench/wine/p' is not owned by you\n", executors.Result{ExitCode: 1}, [2]int64{-1, -1}, true, CauseWine, false},
		{"disk full in a failing run", "running 2 tests\nwrite: no space left on device\n", executors.Result{ExitCode: 101}, [2]int64{-1, -1}, false, engine.CauseNoSpace, true},
		{"disk words in a passing run", "running 1 test\ntest a ... ok (no space left on device handled)\n", executors.Result{ExitCode: 0}, [2]int64{-1, -1}, false, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parser := "libtest"
			if tt.output != "" && tt.output[0] == '{' {
				parser = "go-test-json"
			}
			w := newWatch(parser)
			s := w.stream()
			// Byte by byte: a line split over writes is still one line.
			for i := 0; i < len(tt.output); i++ {
				s.Write([]byte{tt.output[i]})
			}
			err := machineFailure(tt.res, w, tt.oom[0], tt.oom[1], tt.wine)
			if got := engine.InfraCause(err); got != tt.wantCause {
				t.Errorf("cause %q (%v), want %q", got, err, tt.wantCause)
			}
			if got := w.Started(0); got != tt.wantStarts {
				t.Errorf("started = %v, want %v", got, tt.wantStarts)
			}
		})
	}
}

func TestGoCompileArgv(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{[]string{"go", "test", "-count=1", "-json", "-vet=off", "-timeout=10m", "-covermode=set", "-coverpkg=./...", "-coverprofile=c.out", "-skip", "^(TestX)$", "./..."},
			[]string{"go", "test", "-c", "-o", "/dev/null", "-vet=off", "-covermode=set", "-coverpkg=./...", "./..."}},
		{[]string{"go", "test", "-tags", "integration", "-run", "TestA", "./a", "./b", "-args", "-x"},
			[]string{"go", "test", "-c", "-o", "/dev/null", "-tags", "integration", "./a", "./b"}},
		{[]string{"bash", "-c", "go test ./..."}, nil},
	}
	for _, tt := range tests {
		got, ok := goCompileArgv(tt.in)
		if ok != (tt.want != nil) || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("goCompileArgv(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}
