# exec.LookPath without the current directory (GitHub CLI); the Windows
# search (PATHEXT, extensions, no cwd) is lookpath_windows.go.
repository "cli-safeexec" {
  preset = "go"
  source {
    go_module = "github.com/cli/safeexec@v1.0.1"
    sum       = "h1:e/C79PbXF4yYTN/wauC4tviMxEV13BwljGj0N9j+N00="
  }
  toolchain = "go1.26.8"
  migrate   = ["linux->windows"] # windows->linux has no one-sided line (osbench init)

  platform "linux" {
    test {
      # A module zip keeps no executable bit, so _fixtures/*/ls is no
      # program on Linux and the cases that expect to find it fail there;
      # the cases that expect "not found" keep running.
      skip = [
        "TestLookPath/no_extension", "TestLookPath/no_extension,_PATHEXT",
        "TestLookPath/relative_path", "TestLookPath/with_extension",
        "TestLookPath/with_extension,_PATHEXT", "TestLookPath/with_path",
        "TestLookPath/with_path+extension",
      ]
    }
  }
}
