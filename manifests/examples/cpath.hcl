# C: path separators, drive letters and UNC prefixes under #ifdef _WIN32, and
# a file-system probe through GetFileAttributesA / GetTempPathA or stat / access.
repository "cpath" {
  preset = "c-cmake"
  source {
    path = "../../testdata/repos/cpath" # relative to this manifest file
  }
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 1

  platform "linux" {
    test {
      timeout = "5m"
    }
  }
}
