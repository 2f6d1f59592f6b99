# File locks: LockFileEx on Windows (flock_windows.go), flock(2) on Unix (flock_unix.go).
repository "gofrs-flock" {
  preset = "go"
  source {
    go_module = "github.com/gofrs/flock@v0.12.1"
    sum       = "h1:MTLVXXHf8ekldpJk3AKicLij9MdwOWkZ+a/jHHZby9E="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2

  # Masked, the lock never comes and the tests that retry it wait until the
  # timeout: shorter than the presets' 10m/20m, with room for a cold build.
  platform "linux" {
    test { timeout = "5m" }
  }
  platform "windows" {
    test { timeout = "8m" }
  }
}
