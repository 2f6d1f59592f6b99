# Rust: backslash <-> slash path conversion with drive letters under #[cfg(windows)], byte-wise under #[cfg(not(windows))].
repository "path-slash" {
  preset = "cargo"
  source {
    crate  = "path-slash@0.2.1"
    sha256 = "1e91099d4268b0e11973f036e885d652fb0b21fedcf69738c627f94db6a44f42"
  }
  toolchain  = "1.96.0" # Debian 12's rustc-web, which the cargo preset's coverage is built for
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
