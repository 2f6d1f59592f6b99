# Rust: executable checks through PATHEXT and GetBinaryTypeW (windows-sys) on Windows, mode bits 0o111 on Unix.
repository "is-executable" {
  preset = "cargo"
  source {
    crate  = "is_executable@1.0.6"
    sha256 = "82cb6a9f675da968c63b6208c641b9dca58fc0133ae53375736b1767b0cab8bd"
  }
  toolchain  = "1.96.0" # Debian 12's rustc-web, which the cargo preset's coverage is built for
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2
}
