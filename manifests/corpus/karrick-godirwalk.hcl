# Directory walking: raw getdents(2) reads on Unix (readdir_unix.go), os.File.Readdir on Windows.
repository "karrick-godirwalk" {
  preset = "go"
  source {
    go_module = "github.com/karrick/godirwalk@v1.17.0"
    sum       = "h1:b4kY7nqDdioR/6qnbHQyDvmA17u5G1cZ6J+CZXwSWoI="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2

  platform "windows" {
    test {
      # The shared fixture tree has symlinks, which Wine 8 cannot create; every walk over it fails.
      skip_under = { wine = ["TestDirent", "TestErrorCallback", "TestReadDirents", "TestScanner", "TestWalkCompatibleWithFilepathWalk", "TestWalkFollowSymbolicLinks", "TestWalkSkipThis"] }
    }
  }
}
