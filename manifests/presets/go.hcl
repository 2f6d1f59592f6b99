# The go preset: how osbench builds, tests and measures a Go module. A
# manifest that says `preset = "go"` gets all of this and overrides only the
# attributes that differ, e.g. `platform "linux" { test { timeout = "20m" } }`.
preset "go" {
  language = "go"

  platform "linux" {
    executor = "local"

    test {
      # `go test` compiles every package it tests, so there is no separate
      # build command: a package that does not compile is reported by the
      # go-test-json parser as build-failed for each of its tests.
      # It runs offline: osbench fetches the modules go.mod and go.sum
      # pin (and the pinned toolchain) first, and then runs this command
      # with the module cache as its only proxy, read-only, and -mod=mod
      # (plugins/toolenv.Offline).
      command = concat(
        [
          "go", "test",
          # osbench caches results itself; go's own test cache would replay an
          # old run instead of running the tests osbench asked for.
          "-count=1",
          # test2json events are what the go-test-json parser reads.
          "-json",
          # vet findings are not test results; they must never pose as failures.
          "-vet=off",
          # a hung test ends as a timeout result instead of a hung step.
          "-timeout=${timeout}",
          # the differential coverage needs only "executed or not", which the
          # set mode records and which does not vary from run to run.
          "-covermode=set",
          # lines of package A run by the tests of package B count as covered.
          "-coverpkg=./...",
          "-coverprofile=${coverage_file}",
        ],
        skip_args,
        ["./..."],
      )
      parser  = "go-test-json"
      timeout = "10m"
      # Masked and patched trees (masked runs, evaluation, the gold re-run)
      # get less: a hung placeholder or agent patch costs minutes.
      eval_timeout = "5m"
      skip_style   = "go"
    }

    coverage {
      format = "go-coverprofile"
      path   = "coverage.out"
    }
  }

  # Windows. On a Linux host the wine executor runs it: the go command runs
  # natively and cross-compiles (GOOS=windows), and each test binary runs
  # under Wine through the go_windows_amd64_exec launcher the executor puts
  # on PATH — so this block has nothing Wine-specific and runs unchanged on
  # a real Windows host with executor = "local".
  platform "windows" {
    executor = "wine"
    # Pinned to Go 1.25: under Wine 8, Go 1.26's os.RemoveAll fails
    # ("unlinkat ...: Invalid function"), which breaks t.TempDir cleanup in
    # most suites, while go1.25.x passes.
    toolchain = "go1.25.0"
    env = {
      GOOS        = "windows"
      GOARCH      = "amd64"
      CGO_ENABLED = "0"
    }

    test {
      # The same flags as on Linux, for the same reasons; see above.
      command = concat(
        [
          "go", "test", "-count=1", "-json", "-vet=off", "-timeout=${timeout}",
          "-covermode=set", "-coverpkg=./...", "-coverprofile=${coverage_file}",
        ],
        skip_args,
        ["./..."],
      )
      parser = "go-test-json"
      # Every Windows test binary pays Wine's start-up (about 2 s), and file
      # creation is several times slower than on Linux.
      timeout      = "20m"
      eval_timeout = "10m"
      skip_style   = "go"
    }

    coverage {
      format = "go-coverprofile"
      path   = "coverage.out"
    }
  }
}
