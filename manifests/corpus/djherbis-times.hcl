# File times: birth/access/change times from GetFileInformationByHandle on Windows, Stat_t/statx on Linux.
repository "djherbis-times" {
  preset = "go"
  source {
    go_module = "github.com/djherbis/times@v1.6.0"
    sum       = "h1:w2ctJ92J8fBvWPxugmXIv7Nz7Q3iDMKNx9v5ocVH20c="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2

  platform "windows" {
    test {
      # Wine 8 cannot create symlinks (CreateSymbolicLinkW is a stub).
      skip_under = { wine = ["TestLstatSymlink", "TestStatSymlink"] }
    }
  }
}
