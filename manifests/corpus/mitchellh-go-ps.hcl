# Process listing: CreateToolhelp32Snapshot on Windows, /proc on Linux.
repository "mitchellh-go-ps" {
  preset = "go"
  source {
    go_module = "github.com/mitchellh/go-ps@v1.0.0"
    sum       = "h1:i6ampVEEF4wQFF+bkYfwYgY+F/uYJDktmvLPf7qIgjc="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2

  platform "windows" {
    test {
      # Wine lists only Wine's own processes, never the host go command the test looks for.
      skip_under = { wine = ["TestProcesses"] }
    }
  }
}
