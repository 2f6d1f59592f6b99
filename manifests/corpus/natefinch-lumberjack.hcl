# Log rotation; rotated files keep their owner through chown on Linux only (chown_linux.go).
repository "natefinch-lumberjack" {
  preset = "go"
  source {
    go_module = "gopkg.in/natefinch/lumberjack.v2@v2.2.1"
    sum       = "h1:bBRl1b0OH9s/DuPhuXpNl+VtCaJXFZ5/uEFST95x9zc="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
