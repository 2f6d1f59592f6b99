# Colour support detection: virtual-terminal console mode on Windows (detect_windows.go), TERM/terminfo elsewhere.
repository "gookit-color" {
  preset = "go"
  source {
    go_module = "github.com/gookit/color@v1.6.3"
    sum       = "h1:m6E49x+KftGaspcLtPLMsyci2ARhWIUW0PUV1owMlhs="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2

  platform "windows" {
    test {
      # Fails under Wine 8 only (detect_test.go:273: no colour support detected from ConEmuANSI=ON in Wine's console).
      skip_under = { wine = ["TestIsDetectColorLevel_win"] }
    }
  }
}
