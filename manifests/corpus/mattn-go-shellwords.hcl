# Backquoted commands run through cmd /c on Windows, $SHELL -c on POSIX (util_windows.go, util_posix.go).
repository "mattn-go-shellwords" {
  preset = "go"
  source {
    go_module = "github.com/mattn/go-shellwords@v1.0.16"
    sum       = "h1:RRxAaRzU1YbzOSCj9NJqg2/VIbSWv0dnPoD3EwE8kxI="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2

  platform "windows" {
    test {
      # They run printf, pwd and go through cmd /c: Wine finds no host Unix tools.
      skip_under = { wine = ["TestBacktick", "TestBacktickMulti", "TestHaveSubstitutedRedirectPrefix", "TestShellRun", "TestShellRunNoEnv", "TestValidDollarCommandSubstitutionStillWorks"] }
    }
  }
}
