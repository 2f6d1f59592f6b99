package toolprobe

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/executors"
	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/plugins/toolenv"
)

// scriptedExecutor answers each command from a table keyed by its argv,
// and records what it was asked to run.
type scriptedExecutor struct {
	answers map[string]scriptedAnswer
	ran     []executors.Cmd
}

type scriptedAnswer struct {
	stdout, stderr string
	exit           int
	err            error
}

func (s *scriptedExecutor) Name() string     { return "scripted" }
func (s *scriptedExecutor) Platform() string { return "linux" }
func (s *scriptedExecutor) Fingerprint(context.Context, string) (string, error) {
	return "scripted", nil
}

func (s *scriptedExecutor) Run(_ context.Context, cmd executors.Cmd) (executors.Result, error) {
	s.ran = append(s.ran, cmd)
	a, ok := s.answers[strings.Join(cmd.Argv, " ")]
	if !ok {
		return executors.Result{ExitCode: 127}, nil
	}
	fmt.Fprint(cmd.Stdout, a.stdout)
	fmt.Fprint(cmd.Stderr, a.stderr)
	return executors.Result{ExitCode: a.exit}, a.err
}

// installed are the tool answers of a Debian 12 machine.
var installed = map[string]scriptedAnswer{
	"gcc -dumpfullversion":                              {stdout: "12.2.0\n"},
	"cmake --version":                                   {stdout: "cmake version 3.25.1\n\nCMake suite maintained and supported by Kitware (kitware.com/cmake).\n"},
	"x86_64-w64-mingw32-gcc -dumpversion":               {stdout: "12-win32\n"},
	"x86_64-w64-mingw32-gcc-posix -dumpversion":         {stdout: "12-posix\n"},
	"x86_64-w64-mingw32-g++-posix -dumpversion":         {stdout: "12-posix\n"},
	"wine --version":                                    {stdout: "wine-8.0 (Debian 8.0~repack-4)\n"},
	"rustc --version":                                   {stdout: "rustc 1.63.0\n"},
	"cargo --version":                                   {stdout: "cargo 1.65.0\n"},
	"cat /usr/local/lib/osbench/rust-windows-gnu/stamp": {stdout: "5f1c\n"},
}

func TestFingerprintTools(t *testing.T) {
	tests := []struct {
		language, platform, version string
		answers                     map[string]scriptedAnswer
		want                        string // the fingerprint, or the error's text
		wantErr                     bool
	}{
		{
			language: "c", platform: "linux", answers: installed,
			want: "gcc -dumpfullversion: 12.2.0\ncmake --version: cmake version 3.25.1\n",
		},
		{
			language: "c", platform: "windows", answers: installed,
			want: "x86_64-w64-mingw32-gcc -dumpversion: 12-win32\n" +
				"x86_64-w64-mingw32-gcc-posix -dumpversion: 12-posix\n" +
				"x86_64-w64-mingw32-g++-posix -dumpversion: 12-posix\n" +
				"wine --version: wine-8.0 (Debian 8.0~repack-4)\n" +
				"cmake --version: cmake version 3.25.1\n",
		},
		{
			language: "rust", platform: "linux", version: "1.63.0", answers: installed,
			want: "rustc --version: rustc 1.63.0\ncargo --version: cargo 1.65.0\n",
		},
		{
			language: "rust", platform: "linux", version: "1.63", answers: installed,
			want: `toolchain "1.63" is pinned, but rustc --version says "rustc 1.63.0"`, wantErr: true,
		},
		{
			language: "rust", platform: "linux",
			answers: map[string]scriptedAnswer{
				"rustc --version": {stdout: "rustc 1.63.0\n  (Debian)\n"},
				"cargo --version": {stdout: "cargo   1.65.0\n"},
			},
			want: "rustc --version: rustc 1.63.0 (Debian)\ncargo --version: cargo 1.65.0\n",
		},
		{
			language: "c", platform: "linux", version: "12.2.0", answers: installed,
			want: "gcc -dumpfullversion: 12.2.0\ncmake --version: cmake version 3.25.1\n",
		},
		{
			language: "c", platform: "linux",
			answers: map[string]scriptedAnswer{"gcc -dumpfullversion": {stdout: "12.2.0\n"}},
			want:    "cmake --version: exit 127 (timed out: false): ", wantErr: true,
		},
		{
			language: "c", platform: "linux",
			answers: map[string]scriptedAnswer{"gcc -dumpfullversion": {stderr: "gcc: fatal error\n", exit: 1}},
			want:    "gcc -dumpfullversion: exit 1 (timed out: false): gcc: fatal error", wantErr: true,
		},
		{
			language: "c", platform: "linux",
			answers: map[string]scriptedAnswer{"gcc -dumpfullversion": {err: errors.New("executor died")}},
			want:    "gcc -dumpfullversion: executor died", wantErr: true,
		},
		{
			language: "rust", platform: "linux",
			answers: map[string]scriptedAnswer{"rustc --version": {stdout: "\n", stderr: "no default toolchain"}},
			want:    "rustc --version: printed nothing on stdout; stderr: no default toolchain", wantErr: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.language+"/"+tc.platform+"/"+tc.version+"/"+tc.want[:min(len(tc.want), 20)], func(t *testing.T) {
			ps, ok := For(tc.language, tc.platform, hostExecutor(tc.platform))
			if !ok {
				t.Fatalf("no probes for %s on %s", tc.language, tc.platform)
			}
			ex := &scriptedExecutor{answers: tc.answers}
			base := executors.Cmd{Env: []string{"PATH=/usr/bin"}, User: "", WorkDir: t.TempDir()}
			versions, err := Run(context.Background(), ex, base, ps, tc.version, nil)
			if tc.wantErr {
				if err == nil || err.Error() != tc.want {
					t.Fatalf("error = %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := versions.Lines(); got != tc.want {
				t.Errorf("fingerprint = %q, want %q", got, tc.want)
			}
			for _, cmd := range ex.ran {
				if cmd.WorkDir != base.WorkDir || len(cmd.Env) != 1 || cmd.Timeout != Timeout {
					t.Errorf("%v ran without the step's settings: %+v", cmd.Argv, cmd)
				}
			}
		})
	}
}

func TestProbesCoverEveryPlatformOfALanguage(t *testing.T) {
	for _, language := range lang.Names() {
		if language == lang.Go {
			continue
		}
		for _, platform := range []string{"linux", "windows"} {
			ps, ok := For(language, platform, hostExecutor(platform))
			if !ok || len(ps) == 0 {
				t.Errorf("%s on %s: no probes", language, platform)
			}
		}
	}
	if _, ok := For("go", "linux", "local"); ok {
		t.Error("go has probes, but its toolchain is pinned through GOTOOLCHAIN")
	}
}

func TestContainsWord(t *testing.T) {
	tests := []struct {
		s, word string
		want    bool
	}{
		{"rustc 1.63.0", "1.63.0", true},
		{"rustc 1.63.0", "1.63", false},
		{"rustc 11.63.0", "1.63.0", false},
		{"12-win32", "12", true},
		{"gcc (Debian 12.2.0-14) 12.2.0", "12.2.0", true},
		{"12.2.0", "2.0", false},
	}
	for _, tc := range tests {
		if got := containsWord(tc.s, tc.word); got != tc.want {
			t.Errorf("containsWord(%q, %q) = %v, want %v", tc.s, tc.word, got, tc.want)
		}
	}
}

func TestToolVersionsForms(t *testing.T) {
	vs := Versions{{"gcc -dumpfullversion", "12.2.0"}, {"cmake --version", "cmake version 3.25.1"}}
	for _, tc := range []struct{ name, got, want string }{
		{"lines", vs.Lines(), "gcc -dumpfullversion: 12.2.0\ncmake --version: cmake version 3.25.1\n"},
		{"oneLine", vs.OneLine(), "gcc -dumpfullversion: 12.2.0; cmake --version: cmake version 3.25.1"},
		{"summary", vs.Summary(), "12.2.0, cmake version 3.25.1"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

// TestProberIsOneLineFromTheRoot checks what the compiler keys the
// toolchain steps by: one line, taken without a work dir, each command
// run once.
func TestProberIsOneLineFromTheRoot(t *testing.T) {
	ex := &scriptedExecutor{answers: installed}
	pr := NewProber(ex, "")
	got, err := pr.Tools(context.Background(), "rust", "windows", "wine")
	if err != nil {
		t.Fatal(err)
	}
	want := "rustc --version: rustc 1.63.0; cargo --version: cargo 1.65.0; " +
		"x86_64-w64-mingw32-gcc -dumpversion: 12-win32; wine --version: wine-8.0 (Debian 8.0~repack-4); " +
		"cat /usr/local/lib/osbench/rust-windows-gnu/stamp: 5f1c"
	if got != want {
		t.Errorf("Tools = %q, want %q", got, want)
	}
	for _, cmd := range ex.ran {
		if cmd.Dir != "/" || cmd.WorkDir != "" {
			t.Errorf("%v ran in %q with work dir %q", cmd.Argv, cmd.Dir, cmd.WorkDir)
		}
	}
	if got, err := pr.Tools(context.Background(), "go", "linux", "local"); got != "" || err != nil {
		t.Errorf("Tools(go) = %q, %v; want nothing: Go is pinned by version", got, err)
	}
	// C on windows shares the cross compiler and Wine with Rust: only
	// the posix thread model's compilers (c-cmake's) and cmake are new.
	before := len(ex.ran)
	if _, err := pr.Tools(context.Background(), "c", "windows", "wine"); err != nil {
		t.Fatal(err)
	}
	var ran []string
	for _, cmd := range ex.ran[before:] {
		ran = append(ran, cmd.Argv[0])
	}
	if want := "x86_64-w64-mingw32-gcc-posix x86_64-w64-mingw32-g++-posix cmake"; strings.Join(ran, " ") != want {
		t.Errorf("c on windows ran %v, want %s", ran, want)
	}
}

// TestProbesOfThisMachine runs the Linux C and Rust probes through the
// local executor, where the tools are installed.
func TestProbesOfThisMachine(t *testing.T) {
	for _, language := range []string{"c", "rust"} {
		ps, _ := For(language, "linux", "local")
		for _, p := range ps {
			if _, err := exec.LookPath(p.Argv[0]); err != nil {
				t.Skipf("%s not installed", p.Argv[0])
			}
		}
		ex, err := executors.New(executors.LocalName, executors.Config{})
		if err != nil {
			t.Fatal(err)
		}
		versions, err := Run(context.Background(), ex, executors.Cmd{
			// As root: t.TempDir is not reachable by the unprivileged
			// user, and a version query reads nothing of the work dir.
			Env: []string{"PATH=" + toolenv.HostPath()}, WorkDir: t.TempDir(), User: executors.UserRoot,
		}, ps, "", nil)
		if err != nil {
			t.Fatalf("%s: %v", language, err)
		}
		if len(versions) != len(ps) {
			t.Errorf("%s: %d versions for %d probes: %q", language, len(versions), len(ps), versions.Lines())
		}
	}
}

// hostExecutor is the executor that runs platform on this Linux host.
func hostExecutor(platform string) string {
	if platform == "windows" {
		return executors.WineName
	}
	return executors.LocalName
}

// TestTheExecutorDecidesTheProbes: the windows platform is probed with
// the wine executor's tools on a Linux host (cross compilers, Wine) and
// with native ones on a real Windows machine (executor local), which has
// no Wine to ask; the platform alone decides nothing.
func TestTheExecutorDecidesTheProbes(t *testing.T) {
	native := map[string]scriptedAnswer{
		"gcc -dumpfullversion": {stdout: "13.2.0\n"},
		"cmake --version":      {stdout: "cmake version 3.28.1\n"},
		"rustc --version":      {stdout: "rustc 1.83.0\n"},
		"cargo --version":      {stdout: "cargo 1.83.0\n"},
		"dotnet --version":     {stdout: "8.0.404\n"},
	}
	for _, tc := range []struct {
		language, platform, executor string
		answers                      map[string]scriptedAnswer
		want                         string
	}{
		{"c", "windows", "wine", installed, "x86_64-w64-mingw32-gcc -dumpversion: 12-win32; x86_64-w64-mingw32-gcc-posix -dumpversion: 12-posix; x86_64-w64-mingw32-g++-posix -dumpversion: 12-posix; wine --version: wine-8.0 (Debian 8.0~repack-4); cmake --version: cmake version 3.25.1"},
		{"c", "windows", "local", native, "gcc -dumpfullversion: 13.2.0; cmake --version: cmake version 3.28.1"},
		{"cpp", "windows", "local", native, "gcc -dumpfullversion: 13.2.0; cmake --version: cmake version 3.28.1"},
		{"rust", "windows", "local", native, "rustc --version: rustc 1.83.0; cargo --version: cargo 1.83.0"},
		// The same on both executors: dotnet is dotnet.
		{"csharp", "windows", "local", native, "dotnet --version: 8.0.404"},
		// linux has one row, whatever runs it.
		{"c", "linux", "local", installed, "gcc -dumpfullversion: 12.2.0; cmake --version: cmake version 3.25.1"},
	} {
		t.Run(tc.language+"/"+tc.platform+"/"+tc.executor, func(t *testing.T) {
			ex := &scriptedExecutor{answers: tc.answers}
			got, err := NewProber(ex, "").Tools(context.Background(), tc.language, tc.platform, tc.executor)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Tools = %q, want %q", got, tc.want)
			}
			for _, cmd := range ex.ran {
				if tc.executor == "local" && tc.platform == "windows" && (cmd.Argv[0] == "wine" || strings.HasPrefix(cmd.Argv[0], "x86_64-w64-mingw32-")) {
					t.Errorf("a real Windows machine was asked %v", cmd.Argv)
				}
			}
		})
	}
	// Every language with windows probes has them on both executors: a
	// worker of either serves toolchain queues for each.
	if wine, local := Languages("windows", "wine"), Languages("windows", "local"); strings.Join(wine, ",") != strings.Join(local, ",") {
		t.Errorf("languages probed on windows: wine %v, local %v", wine, local)
	}
}
