# ANSI escapes translated into console API calls on Windows (colorable_windows.go), passed through elsewhere.
repository "mattn-go-colorable" {
  preset = "go"
  source {
    go_module = "github.com/mattn/go-colorable@v0.1.16"
    sum       = "h1:+2YjeAe7xP1OQbZW1jERPWWCDLlNqFNCvjiqGiAt84A="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
