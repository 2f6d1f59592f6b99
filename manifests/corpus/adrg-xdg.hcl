# Known folders: SHGetKnownFolderPath on Windows (paths_windows.go), XDG variables and defaults on Unix.
repository "adrg-xdg" {
  preset = "go"
  source {
    go_module = "github.com/adrg/xdg@v0.5.3"
    sum       = "h1:xRnxJXne7+oWDatRhR1JLnvuccuIeCoBu2rtuLqQB78="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2

  platform "windows" {
    test {
      # Wine 8's known folders for the run user (C:\users\nobody\AppData\...) are neither the
      # paths these tests expect nor created, so files under them cannot be opened.
      skip_under = { wine = ["TestBaseDirFuncs", "TestDefaultBaseDirs", "TestDefaultUserDirs", "TestExists"] }
    }
  }
}
