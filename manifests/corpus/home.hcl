# Rust: home directory from USERPROFILE or SHGetKnownFolderPath (windows-sys) under #[cfg(windows)], HOME/getpwuid on Unix.
repository "home" {
  preset = "cargo"
  source {
    crate  = "home@0.5.12"
    sha256 = "cc627f471c528ff0c4a49e1d5e60450c8f6461dd6d10ba9dcd3a61d3dff7728d"
  }
  toolchain  = "1.96.0" # Debian 12's rustc-web, which the cargo preset's coverage is built for
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
