# Line endings (CRLF on Windows) and the per-OS configuration directory; two packages.
repository "lineend" {
  preset = "go"
  source {
    path = "../../testdata/repos/lineend" # relative to this manifest file
  }
  toolchain  = "go1.26.8"
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2 # TestFlakyOnPurpose fails on run 2: quarantined

  platform "linux" {
    test {
      timeout = "5m"
    }
  }

  platform "windows" {
    toolchain = "go1.25.0"
  }
}
