# Rust: home directory from USERPROFILE under #[cfg(windows)], HOME under #[cfg(unix)].
repository "env-home" {
  preset = "cargo"
  source {
    crate  = "env_home@0.1.0"
    sha256 = "c7f84e12ccf0a7ddc17a6c41c93326024c42920d7ee630d04950e6926645c0fe"
  }
  toolchain  = "1.96.0" # Debian 12's rustc-web, which the cargo preset's coverage is built for
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
