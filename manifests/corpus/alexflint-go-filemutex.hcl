# File locks: LockFileEx/UnlockFileEx on Windows (filemutex_windows.go), flock(2) on Unix.
repository "alexflint-go-filemutex" {
  preset = "go"
  source {
    go_module = "github.com/alexflint/go-filemutex@v1.3.0"
    sum       = "h1:LgE+nTUWnQCyRKbpoceKZsPQbs84LivvgwUymZXdOcM="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
