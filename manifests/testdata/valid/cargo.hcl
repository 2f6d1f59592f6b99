# A Rust crate described without a preset, using functions and env().
locals {
  crate     = "winpath"
  toolchain = env("OSBENCH_TEST_RUST", "1.80.0")
  skipped   = ["tests::symlinks", "tests::long_paths"]
}

repository "winpath" {
  source {
    path = format("../../testdata/repos/%s", local.crate)
  }
  language  = "rust"
  toolchain = local.toolchain
  migrate   = ["linux->windows", "windows->linux"]

  platform "linux" {
    test {
      command    = concat(["cargo", "test", "--", "-Z", "unstable-options"], skip_args)
      parser     = "libtest"
      skip       = local.skipped
      skip_style = "libtest"
    }
  }

  platform "windows" {
    executor = "wine"
    user     = ""
    env      = { CARGO_BUILD_TARGET = upper("x86_64-pc-windows-gnu") }
    test {
      command    = concat(["cargo", "test", "--", "--format=${platform}"], skip_args)
      parser     = "libtest"
      skip       = slice(local.skipped, 0, 1)
      skip_style = "libtest"
    }
  }
}
