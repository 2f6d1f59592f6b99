package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// The synthetic repository is the cheapest one that still walks the whole
// build graph: both platforms run on this host with the local executor, its
// "tests" are a shell script that prints test2json events and writes a Go
// coverprofile, and its one Go file has a branch per platform, so each
// direction gets a candidate, a verified region, a mask, masked runs and a
// task — every step kind a real build has, in about a second.
const syntheticMain = `package %[1]s

import "runtime"

// Name says which OS this is.
func Name() string {
	if runtime.GOOS == "windows" {
		return "windows"
	}
	return "linux"
}
`

// The script passes TestName when the platform's return line is present
// (so masking it fails the test on the target, and the gold patch fixes
// it), and reports the branch it "ran" as covered.
const syntheticTest = `p=$1
st=fail
grep -q "return \"$p\"" main.go && st=pass
printf '{"Action":"%%s","Package":"example.com/%[1]s","Test":"TestName"}\n' $st
printf '{"Action":"pass","Package":"example.com/%[1]s","Test":"TestOther"}\n'
if [ "$p" = linux ]; then w=0; l=1; else w=1; l=0; fi
printf 'mode: set\nexample.com/%[1]s/main.go:6.20,7.30 1 1\nexample.com/%[1]s/main.go:7.30,9.3 1 %%s\nexample.com/%[1]s/main.go:10.2,10.16 1 %%s\n' $w $l > coverage.out
`

const syntheticManifest = `repository %[1]q {
  language = "go"
  migrate  = ["windows->linux", "linux->windows"]
  source {
    path = "src/%[1]s"
  }
%[2]s%[3]s}
`

// A build command of its own keeps the mask step from running the Go
// default check (go build ./...), which costs a minute of compiling the
// standard library per mask step.
const syntheticPlatform = `  platform %[1]q {
    executor = "local"
    build {
      command = ["true"]
    }
    test {
      command = ["sh", "test.sh", %[1]q]
      parser  = "go-test-json"
      timeout = "1m"
    }
    coverage {
      format = "go-coverprofile"
      path   = "coverage.out"
    }
  }
`

// writeSyntheticCorpus writes n repositories (manifest + source tree) under
// dir; prefix keeps two corpora's steps apart in one cache.
func writeSyntheticCorpus(dir, prefix string, n int) error {
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("%s%03d", prefix, i)
		src := filepath.Join(dir, "src", name)
		if err := os.MkdirAll(src, 0o755); err != nil {
			return err
		}
		files := map[string]string{
			"go.mod":  fmt.Sprintf("module example.com/%s\n\ngo 1.22\n", name),
			"main.go": fmt.Sprintf(syntheticMain, name),
			"test.sh": fmt.Sprintf(syntheticTest, name),
		}
		for f, body := range files {
			if err := os.WriteFile(filepath.Join(src, f), []byte(body), 0o644); err != nil {
				return err
			}
		}
		manifest := fmt.Sprintf(syntheticManifest, name, fmt.Sprintf(syntheticPlatform, "linux"), fmt.Sprintf(syntheticPlatform, "windows"))
		if err := os.WriteFile(filepath.Join(dir, name+".hcl"), []byte(manifest), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeStressManifest writes one repository whose Linux test runs the given
// shell script (placed in its source tree as run.sh) once, with a timeout.
func writeStressManifest(dir, name, script, timeout string) error {
	src := filepath.Join(dir, "src", name)
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(src, "run.sh"), []byte(script), 0o644); err != nil {
		return err
	}
	// A manifest needs a direction, so both platforms are declared; the
	// harness builds the Linux one only.
	manifest := fmt.Sprintf(`repository %[1]q {
  language   = "shell"
  flaky_runs = 1
  migrate    = ["windows->linux"]
  source {
    path = "src/%[1]s"
  }
  platform "linux" {
    executor = "local"
    test {
      command = ["sh", "run.sh"]
      parser  = "go-test-json"
      timeout = %[2]q
    }
  }
  platform "windows" {
    executor = "local"
    test {
      command = ["sh", "run.sh"]
      parser  = "go-test-json"
      timeout = %[2]q
    }
  }
}
`, name, timeout)
	return os.WriteFile(filepath.Join(dir, name+".hcl"), []byte(manifest), 0o644)
}
