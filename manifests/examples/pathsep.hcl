# Path rules: separators, drive letters, PATH lists and case-insensitive names on Windows.
repository "pathsep" {
  preset = "go"
  source {
    path = "../../testdata/repos/pathsep" # relative to this manifest file
  }
  toolchain  = "go1.26.8"
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 1

  platform "linux" {
    test {
      timeout = "5m"
    }
  }

  platform "windows" {
    toolchain = "go1.25.0"
  }
}
