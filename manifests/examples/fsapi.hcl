# OS APIs in build-tagged files: hidden and read-only attributes, home directory.
repository "fsapi" {
  preset = "go"
  source {
    path = "../../testdata/repos/fsapi" # relative to this manifest file
  }
  toolchain  = "go1.26.8"
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 1

  platform "linux" {
    test {
      timeout = "5m"
    }
  }
}
