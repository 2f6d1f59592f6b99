# Windows-style /option parsing and help (optstyle_windows.go), console width through the console API.
repository "jessevdk-go-flags" {
  preset = "go"
  source {
    go_module = "github.com/jessevdk/go-flags@v1.6.1"
    sum       = "h1:Cvu5U8UGrLay1rZfv/zP7iLpSHGUZ/Ou68T0iX1bBK4="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
