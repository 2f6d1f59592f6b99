package manifests

import (
	"reflect"
	"strings"
	"testing"
)

// paramsPreset declares two parameters with defaults, one of them also per
// platform; its commands show what each platform's commands see.
const paramsPreset = `preset "params" {
  language = "c"
  params   = { options = [], runner = "ctest", jobs = 2 }

  platform "linux" {
    build {
      command = concat(["cmake", "-S", "."], param.options)
    }
    test {
      command = ["run", param.runner, "-j${param.jobs}"]
      parser  = "tap"
    }
  }
  platform "windows" {
    params = { options = ["-DWIN=1"] }
    build {
      command = concat(["cmake", "-S", "."], param.options)
    }
    test {
      command = ["run", param.runner, "-j${param.jobs}"]
      parser  = "tap"
    }
  }
}
`

func TestParams(t *testing.T) {
	tests := []struct {
		name       string
		repository string // the body after source and migrate
		// build and test argv per platform
		linuxBuild, windowsBuild, linuxTest, windowsTest []string
	}{{
		name:         "preset defaults, with the platform's over the preset's",
		linuxBuild:   []string{"cmake", "-S", "."},
		windowsBuild: []string{"cmake", "-S", ".", "-DWIN=1"},
		linuxTest:    []string{"run", "ctest", "-j2"},
		windowsTest:  []string{"run", "ctest", "-j2"},
	}, {
		name:         "a repository value wins over every preset default, key by key",
		repository:   `params = { options = ["-DTESTS=ON", "-DX=1"] }`,
		linuxBuild:   []string{"cmake", "-S", ".", "-DTESTS=ON", "-DX=1"},
		windowsBuild: []string{"cmake", "-S", ".", "-DTESTS=ON", "-DX=1"},
		linuxTest:    []string{"run", "ctest", "-j2"},
		windowsTest:  []string{"run", "ctest", "-j2"},
	}, {
		name: "a repository's platform value wins over its repository value",
		repository: `params = { runner = "each" }
  platform "windows" {
    params = { runner = "suite", jobs = 1 }
  }`,
		linuxBuild:   []string{"cmake", "-S", "."},
		windowsBuild: []string{"cmake", "-S", ".", "-DWIN=1"},
		linuxTest:    []string{"run", "each", "-j2"},
		windowsTest:  []string{"run", "suite", "-j1"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, diags := loadSource(t, paramsPreset+`repository "r" {
  preset = "params"
  source {
    path = "/srv/r"
  }
  migrate = ["linux->windows"]
  `+tt.repository+`
}
`)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			r := set.Repositories[0]
			got := map[string][]string{
				"linux build": r.Platforms[0].Build.Argv, "windows build": r.Platforms[1].Build.Argv,
				"linux test": r.Platforms[0].Test.Argv, "windows test": r.Platforms[1].Test.Argv,
			}
			want := map[string][]string{
				"linux build": tt.linuxBuild, "windows build": tt.windowsBuild,
				"linux test": tt.linuxTest, "windows test": tt.windowsTest,
			}
			for k := range want {
				if !reflect.DeepEqual(got[k], want[k]) {
					t.Errorf("%s = %q, want %q", k, got[k], want[k])
				}
			}
		})
	}
}

// A manifest without a preset names its own parameters.
func TestParamsWithoutPreset(t *testing.T) {
	set, diags := loadSource(t, `repository "r" {
  source {
    path = "/srv/r"
  }
  language = "c"
  migrate  = ["linux->windows"]
  params   = { flags = ["-v"] }
  platform "linux" {
    test {
      command = concat(["./run"], param.flags)
      parser  = "tap"
    }
  }
}
`)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got, want := set.Repositories[0].Platforms[0].Test.Argv, []string{"./run", "-v"}; !reflect.DeepEqual(got, want) {
		t.Errorf("argv = %q, want %q", got, want)
	}
}

// A preset may choose its parser, skip style and report by a parameter; the choice is made per
// repository and platform, and a bad choice is reported where the repository
// set it, or at the preset's expression when that passes a parameter through.
func TestParserFromParams(t *testing.T) {
	const preset = `preset "runner" {
  language = "c"
  params   = { runner = "ctest" }
  platform "linux" {
    test {
      command    = concat(["run", param.runner, report_file], skip_args)
      parser     = param.runner == "gtest" ? "junit" : "ctest"
      skip_style = param.runner == "gtest" ? "gtest" : "ctest"
      report     = param.runner == "gtest" ? "out/report.xml" : null
      skip       = ["Live*"]
    }
  }
  platform "windows" {
    test {
      command = ["run", param.runner]
      parser  = param.runner == "gtest" ? "junit" : param.runner
    }
  }
}
`
	load := func(body string) (*Set, string) {
		set, diags := loadSource(t, preset+`repository "r" {
  preset = "runner"
  source {
    path = "/srv/r"
  }
  migrate = ["linux->windows"]
  `+body+`
}
`)
		if !diags.HasErrors() {
			return set, ""
		}
		return set, diags.Error()
	}
	set, errs := load("")
	if errs != "" {
		t.Fatal(errs)
	}
	if l, w := set.Repositories[0].Platforms[0].Test.Parser, set.Repositories[0].Platforms[1].Test.Parser; l != "ctest" || w != "ctest" {
		t.Errorf("default parsers = %q, %q, want ctest, ctest", l, w)
	}
	linux := set.Repositories[0].Platforms[0].Test
	if want := []string{"run", "ctest", "", "-E", "^(Live.*)$"}; linux.SkipStyle != "ctest" || linux.Report != "" || !reflect.DeepEqual(linux.Argv, want) {
		t.Errorf("default linux test = style %q, report %q, argv %q; want ctest, none, %q", linux.SkipStyle, linux.Report, linux.Argv, want)
	}
	set, errs = load(`params = { runner = "gtest" }`)
	if errs != "" {
		t.Fatal(errs)
	}
	if l, w := set.Repositories[0].Platforms[0].Test.Parser, set.Repositories[0].Platforms[1].Test.Parser; l != "junit" || w != "junit" {
		t.Errorf("gtest parsers = %q, %q, want junit, junit", l, w)
	}
	linux = set.Repositories[0].Platforms[0].Test
	if want := []string{"run", "gtest", "out/report.xml", "--gtest_filter=-Live*"}; linux.SkipStyle != "gtest" || linux.Report != "out/report.xml" || !reflect.DeepEqual(linux.Argv, want) {
		t.Errorf("gtest linux test = style %q, report %q, argv %q; want gtest, out/report.xml, %q", linux.SkipStyle, linux.Report, linux.Argv, want)
	}
	// The windows expression passes the parameter through: an unregistered
	// name is an error at the expression, the linux one is still fine.
	_, errs = load(`params = { runner = "each" }`)
	if !strings.Contains(errs, `manifest.hcl:16`) || !strings.Contains(errs, `No parser named "each"`) {
		t.Errorf("errors = %s, want an unknown parser at line 16", errs)
	}
	// A manifest's own literal parser replaces the preset's expression.
	set, errs = load(`params = { runner = "each" }
  platform "windows" {
    test { parser = "tap" }
  }`)
	if errs != "" {
		t.Fatal(errs)
	}
	if w := set.Repositories[0].Platforms[1].Test.Parser; w != "tap" {
		t.Errorf("overridden parser = %q, want tap", w)
	}
}
