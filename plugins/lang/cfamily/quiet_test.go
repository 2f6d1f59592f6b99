package cfamily_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osbench/osbench/plugins/lang/masktest"
	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// cQuietFixtures are the C failure patterns: a clock whose placeholder
// stops time (a wait on it never ends) and a removed fclose (the program
// runs out of file descriptors). The branch under test is compiled on this
// host with -DTARGET, so the masked code really runs.
var cQuietFixtures = map[string]struct {
	src     string
	regions []schemas.VerifiedRegion
	refusal string // what the refused region's action says
}{
	"a clock placeholder": {
		src: `#include <stdio.h>
#include <sys/time.h>

static struct timeval now(void)
{
    struct timeval tv;
#ifdef TARGET
    gettimeofday(&tv, NULL);
    return tv;
#else
    gettimeofday(&tv, NULL);
    return tv;
#endif
}

int main(void)
{
    struct timeval start = now(), t;
    do {
        t = now();
    } while ((t.tv_sec - start.tv_sec) * 1000000 + (t.tv_usec - start.tv_usec) < 10000);
    puts("ok");
    return 0;
}
`,
		regions: []schemas.VerifiedRegion{masktest.Region(8, 9)},
		refusal: "freeze the clock",
	},
	"a dropped fclose": {
		src: `#include <stdio.h>

static int first_byte(const char *path)
{
    FILE *f = fopen(path, "r");
    int c;
    if (!f)
        return -1;
    c = fgetc(f);
#ifdef TARGET
    fclose(f);
#else
    fclose(f);
#endif
    return c;
}

int main(int argc, char **argv)
{
    (void)argc;
    for (int i = 0; i < 5000; i++) {
        if (first_byte(argv[0]) < 0) {
            printf("out of files after %d opens\n", i);
            return 1;
        }
    }
    puts("ok");
    return 0;
}
`,
		regions: []schemas.VerifiedRegion{masktest.Region(11, 11)},
		refusal: "calls fclose(f)",
	},
}

// TestQuietCPlaceholders masks each C fixture, compiles it with the target
// branch on and runs it: a hang or an exhausted resource is a loud mask.
// The rules refuse both regions, and say why.
func TestQuietCPlaceholders(t *testing.T) {
	masktest.NeedTool(t, "gcc")
	for name, fx := range cQuietFixtures {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "prog.c", Source: []byte(fx.src), Regions: fx.regions})
			if err != nil {
				t.Fatal(err)
			}
			refused := false
			for _, a := range out.Actions {
				refused = refused || a.Kind == mask.KindUnmasked && strings.Contains(a.Detail, fx.refusal)
			}
			if !refused {
				t.Errorf("actions %+v: want the region refused (%q)", out.Actions, fx.refusal)
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "prog.c"), out.Source, 0o644); err != nil {
				t.Fatal(err)
			}
			masktest.Run(t, dir, nil, "gcc", "-std=c99", "-D_DEFAULT_SOURCE", "-DTARGET", "-o", "prog", "prog.c")
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			// A low descriptor limit makes a leak show in a few hundred opens.
			got, err := exec.CommandContext(ctx, "sh", "-c", `ulimit -n 64 && exec "$0"`, filepath.Join(dir, "prog")).CombinedOutput()
			switch {
			case errors.Is(ctx.Err(), context.DeadlineExceeded):
				t.Errorf("the masked program hung\nmasked prog.c:\n%s", out.Source)
			case err != nil || !strings.HasPrefix(string(got), "ok"):
				t.Errorf("the masked program failed (%v):\n%s\nmasked prog.c:\n%s", err, got, out.Source)
			}
		})
	}
}

// TestNestedCEditsCoarsen: one region masks a statement inside a function
// defined in a target branch, another masks that function's whole body;
// the edits nest, and the whole body wins instead of the file failing
// ("edit … overlaps the previous one").
func TestNestedCEditsCoarsen(t *testing.T) {
	src := `#ifdef _WIN32
static int f(int x)
{
#if defined(__i386__)
    x += 1;
#else
    x += 2;
#endif
    return x;
}
#endif
`
	out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "atomic-ops.h", Source: []byte(src), Regions: []schemas.VerifiedRegion{masktest.Region(5, 5), masktest.Region(2, 10)}})
	if err != nil {
		t.Fatalf("Mask: %v", err)
	}
	want := "#ifdef _WIN32\nstatic int f(int x)\n{\n    (void)x;\n    return 0;\n}\n#endif\n"
	if string(out.Source) != want {
		t.Errorf("masked:\n%s\nwant:\n%s", out.Source, want)
	}
}
