# Terminal colour profile: virtual-terminal console mode on Windows, TERM/COLORTERM and termios on Unix.
repository "muesli-termenv" {
  preset = "go"
  source {
    go_module = "github.com/muesli/termenv@v0.16.0"
    sum       = "h1:S5AlUN9dENB57rsbnkPyfdGuWIlkmzJjbFf0Tf5FWUc="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
