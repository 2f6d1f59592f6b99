# The running executable's path: GetModuleFileName on Windows, /proc/self/exe on Linux.
repository "kardianos-osext" {
  preset = "go"
  source {
    go_module = "github.com/kardianos/osext@v0.0.0-20190222173326-2bc1f35cddc0"
    sum       = "h1:iQTw/8FWTuc7uiaSepXwyf3o52HaUYcV+Tu66S3F5GA="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
