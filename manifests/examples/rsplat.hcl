# Rust: #[cfg(windows)] / #[cfg(unix)] paths and PATH lists, file attributes
# through std::os::{windows,unix}::fs, and OS strings through their ffi modules.
repository "rsplat" {
  preset = "cargo"
  source {
    path = "../../testdata/repos/rsplat" # relative to this manifest file
  }
  toolchain  = "1.96.0" # Debian 12's rustc-web, which the cargo preset's coverage is built for
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 1

  platform "linux" {
    test {
      timeout = "5m"
    }
  }
}
