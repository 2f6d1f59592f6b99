# Rust: file identity from volume serial + file index (winapi-util) on Windows, st_dev + st_ino on Unix.
repository "same-file" {
  preset = "cargo"
  source {
    crate  = "same-file@1.0.6"
    sha256 = "93fc1dc3aaa9bfed95e02e6eadabb4baf7e3078b0bd1b4d7b6b0b68378900502"
  }
  toolchain  = "1.96.0" # Debian 12's rustc-web, which the cargo preset's coverage is built for
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
