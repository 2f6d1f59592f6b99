# The cargo preset: how osbench builds and tests a Rust package with cargo.
#
# `cargo test` builds every test target itself, so there is no build
# command: a target that does not compile is reported by the libtest parser
# as build-failed. Cargo's status lines (on stderr) are merged into stdout,
# where the parser reads them, because they name the test binary each test
# belongs to; --no-fail-fast runs every binary even when one fails. Skipped
# tests are left out with libtest's --skip, which --exact makes match whole
# names, as the go and ctest skips do.
#
# Nothing is downloaded (--offline) and nothing of cargo's is kept between
# runs: CARGO_HOME and the target directory live in the scratch copy of the
# repository. Packages with dependencies need them vendored.
#
# Windows is the wine executor: the x86_64-pc-windows-gnu target (Debian:
# libstd-rust-dev-windows), linked by mingw-w64's gcc, and test binaries
# launched by cargo through Wine. Both are set in the environment, never in
# a .cargo/config of the repository. Cargo does not run doctests when it
# cross-compiles, so doctests report on Linux only.
#
# No coverage. Rust's source-based coverage (RUSTFLAGS="-C
# instrument-coverage", then llvm-profdata merge and llvm-cov export, read
# by the llvm-json importer) needs the profiler runtime, which Debian's
# rustc 1.63 does not ship:
#
#   error[E0463]: can't find crate for `profiler_builtins`
#     = note: the compiler may have been built without the profiler runtime
#
# On Linux, RUSTC_BOOTSTRAP=1 with -Z no-profiler-runtime and LLVM 14's
# libclang_rt.profile-x86_64.a (plus -lc) links and gives llvm-cov-14 a
# valid export, but that enables unstable compiler flags on a stable
# compiler, and for x86_64-pc-windows-gnu there is no such runtime at all,
# so the Windows side, which differential coverage needs, stays empty. A
# rustc built with the profiler (rustup's) makes it work on both.
#
# The script is bash, run as `bash -eo pipefail -c SCRIPT NAME ARGS...`, the
# skip flags arriving as arguments, so they are never quoted into it.
#
# Debian: apt-get install rustc cargo libstd-rust-dev-windows gcc-mingw-w64-x86-64 wine wine64
locals {
  # $1: the --target value, or "" for the host; the rest: libtest's flags.
  cargo_test = <<-EOT
    target=$1
    shift
    export CARGO_HOME="$PWD/_osbench_cargo_home" CARGO_TARGET_DIR="$PWD/_osbench_target" CARGO_INCREMENTAL=0
    exec 2>&1
    cargo test --offline --no-fail-fast $${target:+--target "$target"} -- --exact "$@"
  EOT
}

preset "cargo" {
  language = "rust"

  platform "linux" {
    executor = "local"

    test {
      command    = concat(["bash", "-eo", "pipefail", "-c", local.cargo_test, "cargo-test", ""], skip_args)
      parser     = "libtest"
      timeout    = "10m"
      skip_style = "libtest"
    }
  }

  platform "windows" {
    executor = "wine"
    env = {
      CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER = "x86_64-w64-mingw32-gcc"
      CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER = "wine"
    }

    test {
      command = concat(["bash", "-eo", "pipefail", "-c", local.cargo_test, "cargo-test", "x86_64-pc-windows-gnu"], skip_args)
      parser  = "libtest"
      # Wine starts each test binary in about 2 s.
      timeout    = "20m"
      skip_style = "libtest"
    }
  }
}
