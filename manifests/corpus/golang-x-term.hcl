# Terminal state, raw mode and size: the console API on Windows, termios ioctls on Unix.
repository "golang-x-term" {
  preset = "go"
  source {
    go_module = "golang.org/x/term@v0.34.0"
    sum       = "h1:O/2T7POpk0ZZ7MAzMeWFSg6S5IpWd/RXDlM9hgM3DR4="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
