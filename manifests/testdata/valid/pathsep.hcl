# A Go repository on both platforms: the bundled go preset covers Linux, the
# manifest adds Windows under Wine and tightens a few values.
locals {
  go = "go1.26.8"
}

repository "pathsep" {
  preset = "go"
  source {
    path = "../../testdata/repos/pathsep"
  }
  toolchain  = local.go
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 3
  env        = { CGO_ENABLED = "0" }

  platform "linux" {
    test {
      timeout = "20m"
      skip    = ["TestSymlink"]
    }
  }

  platform "windows" {
    executor  = "wine"
    toolchain = "go1.25.5"
    env       = { GOFLAGS = "-mod=mod" }

    test {
      command = concat(
        ["go", "test", "-exec=wine", "-count=1", "-json", "-timeout=${timeout}", "-coverprofile=${coverage_file}"],
        skip_args,
        ["./..."],
      )
      parser     = "go-test-json"
      timeout    = "30m"
      skip       = ["TestSymlink", "TestReadOnlyDir"]
      skip_style = "go"
    }

    coverage {
      format = "go-coverprofile"
      path   = "coverage.out"
    }
  }
}

# A second tree inside the first: a vendored test framework that a
# distribution's repack stripped, pinned on its own.
repository "pathsep-vendored" {
  preset = "go"
  source {
    path = "../../testdata/repos/pathsep"
  }
  extra_source "fixtures" {
    path = "../../testdata/repos/lineend/config"
    at   = "third_party/config"
  }
  migrate = ["windows->linux"]
}
