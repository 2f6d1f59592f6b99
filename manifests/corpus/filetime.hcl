# Rust: file times through SetFileTime on Windows, utimensat/futimens (libc) on Unix.
repository "filetime" {
  preset = "cargo"
  source {
    crate  = "filetime@0.2.29"
    sha256 = "5c287a33c7f0a620c38e641e7f60827713987b3c0f26e8ddc9462cc69cf75759"
  }
  toolchain  = "1.96.0" # Debian 12's rustc-web, which the cargo preset's coverage is built for
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
