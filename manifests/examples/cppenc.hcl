# C++: CRLF line endings, and UTF-8 ↔ wide strings through MultiByteToWideChar /
# WideCharToMultiByte and _wfopen on Windows, a hand-written codec on POSIX.
repository "cppenc" {
  preset = "c-cmake"
  source {
    path = "../../testdata/repos/cppenc" # relative to this manifest file
  }
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 1

  platform "linux" {
    test {
      timeout = "5m"
    }
  }
}
