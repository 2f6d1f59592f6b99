package manifests

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestSkipArgs(t *testing.T) {
	tests := []struct {
		style string
		tests []string
		want  []string
	}{
		{"go", nil, []string{}},
		{"", nil, []string{}},
		{"go", []string{"TestA"}, []string{"-skip", "^TestA$"}},
		{"go", []string{"TestA", "Test.B", "Test(C)"}, []string{"-skip", `^TestA$|^Test\.B$|^Test\(C\)$`}},
		{"go", []string{"TestA", "TestB/sub_one", "TestC/x/y"}, []string{"-skip", `^TestA$|^TestB$/^sub_one$|^TestC$/^x$/^y$`}},
		// A whole test after entries of its subtests still skips it
		// whole: shallower alternatives first (go test takes the first
		// that matches, and a deeper one matches a test only partly).
		{"go", []string{"TestA/x", "TestB/y/z", "TestA", "TestB/y"}, []string{"-skip", `^TestA$|^TestA$/^x$|^TestB$/^y$|^TestB$/^y$/^z$`}},
		{"ctest", []string{"path_test", "a+b"}, []string{"-E", `^(path_test|a\+b)$`}},
		{"libtest", []string{"tests::a", "doc test"}, []string{"--skip", "tests::a", "--skip", "doc test"}},
		// Globs: '*' any run, '?' one character; everything else literal.
		{"ctest", []string{"valid__*", "a.?", "exact"}, []string{"-E", `^(valid__.*|a\..|exact)$`}},
		{"go", []string{"TestWine*/sub?"}, []string{"-skip", `^TestWine.*$/^sub.$`}},
		{"gtest", []string{"LibraryTest.Live*", "Mock/*.Fail"}, []string{"--gtest_filter=-LibraryTest.Live*:Mock/*.Fail"}},
	}
	for _, tt := range tests {
		t.Run(tt.style+"/"+strings.Join(tt.tests, ","), func(t *testing.T) {
			if got := skipArgs(tt.style, tt.tests); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("skipArgs(%q, %q) = %q, want %q", tt.style, tt.tests, got, tt.want)
			}
		})
	}
}

// Commands see the late variables with their final values; other
// expressions do not see them at all (see testdata/invalid/locals.hcl).
func TestLateCommandVariables(t *testing.T) {
	tests := []struct {
		name     string
		test     string // body of the linux test block
		coverage string // the linux coverage block, or ""
		want     []string
		wantEval []string // EvalArgv; nil: the same as want
	}{{
		name: "every variable",
		test: `command    = ["run", repository, platform, timeout, coverage_file, join(",", skip_args), report_file]
      parser     = "tap"
      report     = "out/results.tap"
      timeout    = "90s"
      skip       = ["x", "y"]
      skip_style = "libtest"`,
		coverage: `coverage {
      format = "lcov"
      path   = "cov/lcov.info"
    }`,
		want: []string{"run", "late", "linux", "90s", "cov/lcov.info", "--skip,x,--skip,y", "out/results.tap"},
	}, {
		name: "no timeout, no coverage, no skip",
		test: `command = concat(["run", "t=${timeout}", "c=${coverage_file}", "r=${report_file}"], skip_args)
      parser  = "tap"`,
		want: []string{"run", "t=", "c=", "r="},
	}, {
		name: "a skip style without a skip list adds nothing",
		test: `command    = concat(["go", "test"], skip_args, ["./..."])
      parser     = "go-test-json"
      skip_style = "go"`,
		want: []string{"go", "test", "./..."},
	}, {
		name: "a script sees the variables too",
		test: `command = "go test -timeout ${timeout} ${join(" ", skip_args)} ./..."
      shell   = "bash"
      parser  = "go-test-json"
      timeout = "5m"
      skip       = ["TestZ"]
      skip_style = "go"`,
		want: []string{"go test -timeout 5m -skip ^TestZ$ ./..."},
	}, {
		name: "runs of changed trees see the eval timeout",
		test: `command      = ["go", "test", "-timeout=${timeout}", "./..."]
      parser       = "go-test-json"
      timeout      = "10m"
      eval_timeout = "3m"`,
		want:     []string{"go", "test", "-timeout=10m", "./..."},
		wantEval: []string{"go", "test", "-timeout=3m", "./..."},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := loadOne(t, `repository "late" {
  source {
    path = "/srv/late"
  }
  migrate = ["linux->windows"]
  platform "linux" {
    test {
      `+tt.test+`
    }
    `+tt.coverage+`
  }
  platform "windows" {
    test {
      command = ["t"]
      parser  = "tap"
    }
  }
}`)
			if got := r.Platforms[0].Test.Argv; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("argv = %q, want %q", got, tt.want)
			}
			wantEval := tt.wantEval
			if wantEval == nil {
				wantEval = tt.want
			}
			if got := r.Platforms[0].Test.EvalArgv; !reflect.DeepEqual(got, wantEval) {
				t.Errorf("eval argv = %q, want %q", got, wantEval)
			}
		})
	}
}

// An error that depends on the final values is reported when the command is
// evaluated for a repository, at the command's range.
func TestLateCommandErrors(t *testing.T) {
	set, diags := loadSource(t, `repository "late" {
  source {
    path = "/srv/late"
  }
  migrate = ["linux->windows"]
  platform "linux" {
    test {
      command    = ["run", element(skip_args, 0)]
      parser     = "tap"
      skip_style = "go"
    }
  }
  platform "windows" {
    test {
      command = ["t"]
      parser  = "tap"
    }
  }
}`)
	if len(set.Repositories) != 0 {
		t.Errorf("a repository with a broken command was returned")
	}
	if len(diags) != 1 || diags[0].Subject == nil || diags[0].Subject.Start.Line != 8 {
		t.Fatalf("want one error on line 8, got %v", diags)
	}
}

// A skip regexp built from globs matches exactly the names the globs do.
func TestSkipGlobRegexp(t *testing.T) {
	re := regexp.MustCompile(anchoredAlternation([]string{"valid__*", "t?st", "a+b"}))
	for name, want := range map[string]bool{
		"valid__x": true, "valid__": true, "invalid__x": false,
		"test": true, "tst": false, "teest": false,
		"a+b": true, "aab": false,
	} {
		if got := re.MatchString(name); got != want {
			t.Errorf("%q matched %v, want %v", name, got, want)
		}
	}
}
