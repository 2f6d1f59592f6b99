# Home directory: HOME, USERPROFILE, HOMEDRIVE+HOMEPATH on Windows; HOME, getent, sh -c on Unix (runtime.GOOS).
repository "mitchellh-go-homedir" {
  preset = "go"
  source {
    go_module = "github.com/mitchellh/go-homedir@v1.1.0"
    sum       = "h1:lukF9ziXFxDFPkA1vsr5zpc1XuPDn/wFntq5mG+4E0Y="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
