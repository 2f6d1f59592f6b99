package csharp

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/schemas"
)

// copyFixture copies the csplat fixture into a fresh directory.
func copyFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.WalkDir(fixture, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(fixture, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// runCheck runs the default build check in dir as the mask step would.
func runCheck(t *testing.T, dir, target string) (bool, string) {
	t.Helper()
	argv := BuildCheck(target)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
		return false, string(out)
	}
	return true, string(out)
}

func TestBuildCheckCompilesMasksAndFailsBrokenOnes(t *testing.T) {
	if _, err := exec.LookPath("mcs"); err != nil {
		t.Skip("mcs not installed (scripts/deps.sh installs mono-mcs)")
	}
	dir := copyFixture(t)
	for _, target := range []string{"windows", "linux"} {
		if ok, log := runCheck(t, dir, target); !ok {
			t.Fatalf("the complete fixture does not pass the %s check:\n%s", target, log)
		}
	}
	for _, fm := range fixtureMasks {
		out := maskFixture(t, fm.file, fm.regions)
		if err := os.WriteFile(filepath.Join(dir, fm.file), out.Source, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if ok, log := runCheck(t, dir, "windows"); !ok {
		t.Fatalf("the masked fixture does not compile for windows:\n%s", log)
	}
	// Each of these breaks what the masks wrote: a missing out
	// assignment, a wrong placeholder type, a lost brace. The check must
	// catch all three, or it proves nothing.
	masked, err := os.ReadFile(filepath.Join(dir, "src/Csplat/PathRules.cs"))
	if err != nil {
		t.Fatal(err)
	}
	for name, broken := range map[string]string{
		"out parameter unassigned":      strings.Replace(string(masked), "sep = default(char); return false;", "return false;", 1),
		"placeholder of the wrong type": strings.Replace(string(masked), `return "";`, "return 0;", 1),
		"brace lost":                    strings.Replace(string(masked), "return false;\n            }", "return false;\n", 1),
	} {
		if broken == string(masked) {
			t.Fatalf("%s: the breakage did not apply", name)
		}
		if err := os.WriteFile(filepath.Join(dir, "src/Csplat/PathRules.cs"), []byte(broken), 0o644); err != nil {
			t.Fatal(err)
		}
		if ok, log := runCheck(t, dir, "windows"); ok {
			t.Errorf("%s: the check passed a broken mask:\n%s", name, log)
		}
	}
}

// A mask of an #if WINDOWS branch is compiled only when WINDOWS is
// defined: the check for the windows target defines it, so a broken
// branch fails there and not on linux.
func TestBuildCheckDefinesTheTargetSymbol(t *testing.T) {
	if _, err := exec.LookPath("mcs"); err != nil {
		t.Skip("mcs not installed")
	}
	dir := copyFixture(t)
	p := filepath.Join(dir, "src/Csplat/LineEnd.cs")
	src, _ := os.ReadFile(p)
	broken := bytes.Replace(src, []byte(`return "\r\n";`), []byte(`return 1;`), 1)
	if err := os.WriteFile(p, broken, 0o644); err != nil {
		t.Fatal(err)
	}
	if ok, _ := runCheck(t, dir, "linux"); !ok {
		t.Error("linux check compiled the WINDOWS branch")
	}
	if ok, _ := runCheck(t, dir, "windows"); ok {
		t.Error("windows check did not compile the WINDOWS branch")
	}
}

func TestBuildCheckSkipsProjectsWithPackages(t *testing.T) {
	dir := copyFixture(t)
	proj := filepath.Join(dir, "src/Csplat/Csplat.csproj")
	b, _ := os.ReadFile(proj)
	b = bytes.Replace(b, []byte("</Project>"), []byte(`<ItemGroup><PackageReference Include="Newtonsoft.Json" Version="13.0.3" /></ItemGroup></Project>`), 1)
	if err := os.WriteFile(proj, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ok, log := runCheck(t, dir, "windows")
	if !ok || !strings.Contains(log, "not plain C#") {
		t.Errorf("check of a project with packages: ok=%v, log %q", ok, log)
	}
}

func TestMaskLeavesCodeOutsidePlatformConstructs(t *testing.T) {
	src := []byte("class A {\n    string F() {\n        var s = @\"if (OperatingSystem.IsWindows()) { \"\" }\";\n        return s;\n    }\n}\n")
	out, err := MaskRules{}.Mask(context.Background(), lang.MaskInput{Path: "A.cs", Source: src,
		Regions: []schemas.VerifiedRegion{{Region: schemas.Region{Start: 3, End: 4}, Verdict: schemas.Verdict{Label: schemas.LabelConditional}}}})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Source, src) || len(out.Actions) != 1 || out.Actions[0].Kind != lang.KindUnmasked {
		t.Errorf("masked code no platform construct selects: %+v\n%s", out.Actions, out.Source)
	}
}

func TestMaskBracelessPlatformIf(t *testing.T) {
	src := []byte("class A {\n    static int F(out int n) {\n        if (OperatingSystem.IsWindows())\n            return Native(out n);\n        n = 0;\n        return 1;\n    }\n}\n")
	out, err := MaskRules{}.Mask(context.Background(), lang.MaskInput{Path: "A.cs", Source: src,
		Regions: []schemas.VerifiedRegion{{Region: schemas.Region{Start: 4, End: 4}, Verdict: schemas.Verdict{Label: schemas.LabelConditional}}}})
	if err != nil {
		t.Fatal(err)
	}
	want := "            { n = default(int); return default(int); }\n"
	if !bytes.Contains(out.Source, []byte(want)) || len(out.Actions) != 1 || out.Actions[0].Kind != lang.KindStatements {
		t.Errorf("braceless platform if: %+v\n%s", out.Actions, out.Source)
	}
}
