package entrytrace

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

// TestWineRecord: what the Windows debugger wrote becomes the record the
// go-test runner reads; a debuggee whose end the debugger never saw has
// every function armed and none entered, and one never created is
// untraced.
func TestWineRecord(t *testing.T) {
	funcs := []PEFunc{{"TestA", 0x10}, {"TestB", 0x20}}
	tests := []struct {
		name, out   string
		nilRecord   bool
		notEntered  []string
		enteredOnes []string
	}{
		{"complete", "images 1\narmed TestA\narmed TestB\nentered TestA\nexit 0\n", false, []string{"TestB"}, []string{"TestA"}},
		{"lost before the end", "images 1\narmed TestA\narmed TestB\nentered TestA\n", false, []string{"TestA", "TestB"}, nil},
		{"detached, nothing armed yet", "images 1\n", false, []string{"TestA", "TestB"}, nil},
		{"never created", "", true, nil, nil},
		{"garbage", "exit 0\nentered TestA\n", true, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := ParseRecord([]byte(wineRecord(funcs, []byte(tt.out))))
			if (rec == nil) != tt.nilRecord {
				t.Fatalf("record = %+v, want nil %v", rec, tt.nilRecord)
			}
			for _, n := range tt.notEntered {
				if !rec.NotEntered(n) {
					t.Errorf("%s: armed and entered = %v %v, want armed and not entered", n, rec.Armed[n], rec.Entered[n])
				}
			}
			for _, n := range tt.enteredOnes {
				if !rec.Entered[n] {
					t.Errorf("%s not entered", n)
				}
			}
		})
	}
}

// TestWindowsCommandLine: arguments survive the Microsoft C runtime's
// splitting rules (quotes, backslashes before quotes, empty arguments).
func TestWindowsCommandLine(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{`Z:\t\a.test.exe`, "-test.v"}, `Z:\t\a.test.exe -test.v`},
		{[]string{"a", "b c", ""}, `a "b c" ""`},
		{[]string{"a", `say "hi"`}, `a "say \"hi\""`},
		{[]string{"a", `dir\ with\`}, `a "dir\ with\\"`},
		{[]string{"a", `x\"y`}, `a "x\\\"y"`},
		{[]string{"a", `x \"y`}, `a "x \\\"y"`},
		{[]string{"a", "-test.run=^(TestA|TestB)$"}, "a -test.run=^(TestA|TestB)$"},
	}
	for _, tt := range tests {
		if got := windowsCommandLine(tt.args); got != tt.want {
			t.Errorf("windowsCommandLine(%q) = %s, want %s", tt.args, got, tt.want)
		}
	}
	if got := windowsPath("/tmp/w/a.test.exe"); got != `Z:\tmp\w\a.test.exe` {
		t.Errorf("windowsPath = %s", got)
	}
}

// TestPEFuncs reads the tests of a Windows Go test binary from its COFF
// symbol table (go test -c) and, stripped as go test links the binaries
// it runs, from the Go function table: the same functions at the same
// offsets either way. A Linux (ELF) program is no PE image.
func TestPEFuncs(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	build := func(name string, flags ...string) string {
		out := filepath.Join(dir, name)
		cmd := exec.Command("go", append(append([]string{"test", "-c", "-o", out}, flags...), ".")...)
		cmd.Dir = filepath.Join("testdata", "winsuite")
		cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go test -c %v: %v\n%s", flags, err, b)
		}
		return out
	}
	full, err := PEFuncs(build("full.exe"), GoTest)
	if err != nil {
		t.Fatal(err)
	}
	stripped, err := PEFuncs(build("stripped.exe", "-ldflags=-s -w"), GoTest)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range full {
		names = append(names, f.Name)
	}
	want := []string{"TestAdd", "TestNeverSelected", "TestParallel", "TestRecovered", "ExampleAdd", "TestExternal"}
	if len(names) != len(want) {
		t.Errorf("functions = %v, want %v", names, want)
	}
	if !reflect.DeepEqual(full, stripped) {
		t.Errorf("symbol table %v\nfunction table %v", full, stripped)
	}
	self, _ := os.Executable()
	if _, err := PEFuncs(self, GoTest); err == nil {
		t.Error("an ELF program read as a PE image")
	}
}
