# PID lock files: process liveness through OpenProcess on Windows, kill(pid, 0) on Unix.
repository "nightlyone-lockfile" {
  preset = "go"
  source {
    go_module = "github.com/nightlyone/lockfile@v1.0.0"
    sum       = "h1:RHep2cFKK4PonZJDdEl4GmkabuhbsRMgk/k3uAmxBiA="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2

  platform "windows" {
    test {
      # It needs os.Getppid() to be a live process, and under Wine the parent is not.
      skip_under = { wine = ["TestBusy"] }
    }
  }
}
