package entrytrace

import (
	"context"
	"os"
	"os/exec"
	"testing"
)

// BenchmarkTraceCost runs one test binary (the suite's passing tests,
// parallel ones included) plainly and under the tracer, side by side: the
// ratio of the two is the cost of entry evidence for a Go package.
func BenchmarkTraceCost(b *testing.B) {
	bin := benchBinary(b)
	args := []string{bin, "-test.run", "^(TestAdd|TestSkipped|TestParallel|TestNilRecovered|TestExternal|ExampleAdd)$"}
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command(bin, args[1:]...)
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v\n%s", err, out)
			}
		}
	})
	b.Run("traced", func(b *testing.B) {
		for b.Loop() {
			res, err := Trace(context.Background(), Command{Path: bin, Args: args, Env: os.Environ(), Select: GoTest})
			if err != nil || res.ExitCode != 0 {
				b.Fatalf("%v %+v", err, res)
			}
		}
	})
}

func benchBinary(b *testing.B) string {
	b.Helper()
	out := b.TempDir() + "/suite.test"
	cmd := exec.Command("go", "test", "-c", "-o", out, ".")
	cmd.Dir = "testdata/suite"
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	if o, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go test -c: %v\n%s", err, o)
	}
	return out
}
