# A filesystem abstraction; BasePathFs and the temp-dir helpers treat
# Windows volume names apart (basepath.go, util.go).
repository "spf13-afero" {
  preset = "go"
  source {
    go_module = "github.com/spf13/afero@v1.15.0"
    sum       = "h1:b/YBCLWAJdFWJTN9cLhiXXcD7mzKn9Dm86dNnfyQw1I="
  }
  toolchain = "go1.26.8"
  migrate   = ["windows->linux", "linux->windows"]

  platform "windows" {
    test {
      # Wine 8 makes no symbolic links: os.Symlink succeeds and leaves
      # nothing that Lstat or Readlink can read back.
      skip_under = { wine = [
        "TestGlobSymlink", "TestLstatIfPossible", "TestReadlinkIfPossible", "TestSymlinkIfPossible",
      ] }
    }
  }
}
