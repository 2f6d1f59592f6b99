# Terminal detection: console mode and Cygwin/MSYS pty pipe names on Windows, ioctl(TCGETS) on Linux.
repository "mattn-go-isatty" {
  preset = "go"
  source {
    go_module = "github.com/mattn/go-isatty@v0.0.24"
    sum       = "h1:tGZZoVgT/KiqK1c8ocVLeDS8BSWMRd47J3Lbz7vsReI="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
