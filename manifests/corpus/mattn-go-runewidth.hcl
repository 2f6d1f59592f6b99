# East Asian width from the console code page on Windows, from LC_ALL/LANG on POSIX.
repository "mattn-go-runewidth" {
  preset = "go"
  source {
    go_module = "github.com/mattn/go-runewidth@v0.0.31"
    sum       = "h1:1oCV4ReTlosDBc6rYRw5cL8S/4y8iv5oRl4SJ5IBgwo="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
