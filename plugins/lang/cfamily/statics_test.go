package cfamily_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang/masktest"
	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// staticsSrc is json-c's shape: a shared function, the only user of a
// file-static helper (and through it of a table), with a Windows branch,
// and a static that only Linux declares.
const staticsSrc = `static const char drive_seps[] = "\\/";
static int is_drive_sep(char c) { return c == drive_seps[0] || c == drive_seps[1]; }
#ifndef _WIN32
static int unix_only(void) { return 1; }
#endif

int path_root(const char *p)
{
    int n = is_drive_sep(p[0]) ? 1 : 0;
#ifdef _WIN32
    if (p[0] && p[1] == ':')
        n = 3;
#else
    if (p[0] == '/')
        n = unix_only();
#endif
    return n;
}
`

// A placeholder keeps the statics its body named referenced, so a target
// build with -Werror=unused-function still compiles; a static another
// platform declares alone is named only under its condition (it would not
// compile there).
func TestPlaceholderKeepsStaticsUsed(t *testing.T) {
	out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "root.c", Source: []byte(staticsSrc),
		Regions: []schemas.VerifiedRegion{masktest.Region(11, 12)}, Coarse: true})
	if err != nil {
		t.Fatal(err)
	}
	got := string(out.Source)
	if !strings.Contains(got, "(void)is_drive_sep;") {
		t.Errorf("the placeholder does not name is_drive_sep:\n%s", got)
	}
	// unix_only is named only under the condition that declares it.
	if strings.Count(got, "(void)unix_only;") != strings.Count(got, "#if !defined(_WIN32)\n    (void)unix_only;\n#endif") {
		t.Errorf("the placeholder names unix_only, which Windows does not declare, outside #if !defined(_WIN32):\n%s", got)
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "root.c")
	if err := os.WriteFile(file, out.Source, 0o644); err != nil {
		t.Fatal(err)
	}
	// -D_WIN32 stands for the target's compiler; the source's build is the
	// plain one, which must see what it saw before.
	for _, defs := range [][]string{{"-D_WIN32"}, nil} {
		args := append([]string{"-c", "-Wall", "-Werror", "-o", filepath.Join(dir, "root.o"), file}, defs...)
		if b, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
			t.Errorf("gcc %v: %v\n%s\n%s", defs, err, b, got)
		}
	}
}
