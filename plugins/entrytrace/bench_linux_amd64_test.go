package entrytrace

import (
	"context"
	"os"
	"os/exec"
	"regexp"
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

// BenchmarkTraceCostRust runs the unit-test program of the rsplat example
// crate (Debian's cargo, the test profile) plainly and under the tracer
// with the Rust selector, side by side: the cost of entry evidence for a
// cargo test program, every function of its crate armed.
func BenchmarkTraceCostRust(b *testing.B) {
	if _, err := os.Stat("/usr/bin/cargo"); err != nil {
		b.Skip("no /usr/bin/cargo (Debian's cargo-web)")
	}
	target := b.TempDir()
	cmd := exec.Command("/usr/bin/cargo", "test", "--offline", "--lib", "--no-run", "--message-format=json")
	cmd.Dir = "../../testdata/repos/rsplat"
	cmd.Env = append(os.Environ(), "CARGO_TARGET_DIR="+target, "PATH=/usr/bin:/bin")
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("cargo test --no-run: %v", err)
	}
	m := regexp.MustCompile(`"executable":"([^"]+)"`).FindSubmatch(out)
	if m == nil {
		b.Fatalf("cargo named no test program:\n%s", out)
	}
	bin := string(m[1])
	dir := b.TempDir() // the attrs tests write scratch files in the working directory
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command(bin)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v\n%s", err, out)
			}
		}
	})
	b.Run("traced", func(b *testing.B) {
		for b.Loop() {
			res, err := Trace(context.Background(), Command{Path: bin, Args: []string{bin}, Env: os.Environ(), Dir: dir, Select: RustTests(RustCrate(bin))})
			if err != nil || res.ExitCode != 0 || len(res.Entered) == 0 {
				b.Fatalf("%v %+v", err, res)
			}
		}
	})
}
