# Rust: UNC prefix stripping, reserved names and path length checks under #[cfg(windows)]; a pass-through elsewhere.
repository "dunce" {
  preset = "cargo"
  source {
    crate  = "dunce@1.0.5"
    sha256 = "92773504d58c093f6de2459af4af33faa518c13451eb8f2b5698ed3d36e7c813"
  }
  toolchain  = "1.96.0" # Debian 12's rustc-web, which the cargo preset's coverage is built for
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
