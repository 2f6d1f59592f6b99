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
      parser     = "go-test-json"
      timeout    = "10m"
      skip_style = "go"
    }

    coverage {
      format = "go-coverprofile"
      path   = "coverage.out"
    }
  }
}
