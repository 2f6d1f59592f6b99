package manifests

import (
	"strings"
	"testing"
	"time"
)

// Hostile manifests end within seconds with an error at their file:line,
// never a stack overflow, an out-of-memory kill or a hang.
func TestEvaluationBudget(t *testing.T) {
	repo := func(body string) string {
		return `repository "r" {
  source { path = "x" }
  migrate = ["linux->windows"]
` + body + `
  platform "linux" {
    test {
      command = ["true"]
      parser  = "tap"
    }
  }
  platform "windows" {
    test {
      command = ["true"]
      parser  = "tap"
    }
  }
}
`
	}
	tests := []struct {
		name, src, want string
	}{
		{"100k brackets", repo("  env = { A = " + strings.Repeat("[", 100_000) + "1" + strings.Repeat("]", 100_000) + " }"), "nested too deeply"},
		{"3e5 parentheses", repo("  flaky_runs = " + strings.Repeat("(", 300_000) + "1" + strings.Repeat(")", 300_000)), "nested too deeply"},
		{"3e5 unary minus", repo("  flaky_runs = " + strings.Repeat("- ", 300_000) + "1"), "nested too deeply"},
		{"a 100 MB manifest", repo("  # " + strings.Repeat("x", 100<<20)), "Manifest too large"},
		{"format padded to a billion", "locals {\n  big = format(\"%1000000000d\", 1)\n}\n" + repo(""), "above 10000"},
		{"format precision of a billion", "locals {\n  big = format(\"%.1000000000f\", 1)\n}\n" + repo(""), "above 10000"},
		{"formatlist padded", "locals {\n  big = formatlist(\"%-99999999s\", [\"a\"])\n}\n" + repo(""), "above 10000"},
		{"indent by a billion", "locals {\n  big = indent(1000000000, \"a\\nb\")\n}\n" + repo(""), "at most 10000"},
		{"setproduct of three ranges", "locals {\n  big = setproduct(range(1000), range(1000), range(1000))\n}\n" + repo(""), "at most 100000"},
		{"for over a billion", "locals {\n  big = [for i in range(1000000000) : i]\n}\n" + repo(""), "at most 100000"},
		{"a hundred million flaky runs", repo("  flaky_runs = 100000000"), "at most 100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, diags := loadSource(t, tt.src)
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("took %v", took)
			}
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			found := false
			for _, d := range diags {
				if strings.Contains(d.Summary+" "+d.Detail, tt.want) {
					found = true
					if d.Subject == nil || d.Subject.Start.Line < 1 || !strings.HasSuffix(d.Subject.Filename, "manifest.hcl") {
						t.Errorf("no file:line for %q: %+v", d.Summary, d.Subject)
					}
				}
			}
			if !found {
				t.Errorf("no diagnostic saying %q: %v", tt.want, diags)
			}
		})
	}
}

// Real nesting, strings with brackets and heredocs with shell code pass.
func TestNestingCheckLeavesRealManifestsAlone(t *testing.T) {
	src := "locals {\n  s = \"(((( ${join(\",\", [\"a\"])} [[[\"\n  h = <<-EOT\n    if [ -f x ]; then echo \"((((\"; fi\n    case $1 in a) ;; esac\n  EOT\n  n = - - 1\n}\n"
	if d := checkNesting("m.hcl", []byte(src)); d.HasErrors() {
		t.Errorf("checkNesting: %v", d)
	}
	deep := strings.Repeat("[", maxNesting+1)
	d := checkNesting("m.hcl", []byte("locals {\n  x = "+deep+"\n}\n"))
	if !d.HasErrors() || d[0].Subject.Start.Line != 2 {
		t.Errorf("too deep on line 2: %v", d)
	}
}

func TestFormatWidthsOfRealManifestsPass(t *testing.T) {
	for _, f := range []string{"%s", "%-20s|%05d|%.2f", "%[2]s %[1]s", "100%%", "%#v", "%+8.3f", "%10000s"} {
		if err := checkFormatWidths(f); err != nil {
			t.Errorf("%q: %v", f, err)
		}
	}
	for _, f := range []string{"%10001s", "%.10001f", "%[1]099999d", "%-+#099999999999999999999999999d"} {
		if err := checkFormatWidths(f); err == nil {
			t.Errorf("%q passed", f)
		}
	}
}
