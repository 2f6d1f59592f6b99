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
# Dependencies: before this script runs, osbench itself fetches what
# Cargo.lock pins (`cargo fetch --locked`, versions and checksums; a crate
# source always has a Cargo.lock) into CARGO_HOME, one shared download
# cache (like Go's module cache), from a copy of the lock files that holds
# no code of the repository (steps/testrun/fetch.go). The build and the
# tests then run --frozen: offline, and with Cargo.lock as it is. The
# target directory lives in the scratch copy of the repository, so nothing
# that was built is kept between runs.
#
# Windows is the wine executor: the x86_64-pc-windows-gnu target, linked by
# mingw-w64's gcc, and test binaries launched by cargo (and doctests by
# rustdoc) through Wine. Both are set in the environment, never in a
# .cargo/config of the repository.
#
# Coverage is Rust's source-based coverage on both platforms: everything is
# compiled with -C instrument-coverage (doctests too, through RUSTDOCFLAGS,
# so what a doctest runs counts on both platforms alike), each test program
# writes a .profraw file as it exits, llvm-profdata merges them, and
# llvm-cov exports the merged counts over the test programs cargo built, as
# the JSON the llvm-json importer reads. The LLVM tools are the ones of
# rustc's own LLVM version (rustc -vV), since the raw profile format changes
# between LLVM versions. Files outside the repository (the standard
# library) are dropped by the importer.
#
# The compiler is Debian's rustc-web (1.96, LLVM 22), whose Linux standard
# library includes the profiler runtime. Debian has no Windows standard
# library for it: scripts/rust-profiler.sh builds one, with a profiler
# runtime of ours, into /usr/local/lib/osbench/rust-windows-gnu, which the
# Windows flags below name as the sysroot. Windows programs are linked by
# lld through that directory's gcc wrapper (GNU ld breaks the coverage
# sections of PE files), and with -C link-dead-code, without which the
# linker drops the per-function coverage records nothing refers to.
#
# The script is bash, run as `bash -eo pipefail -c SCRIPT NAME ARGS...`, the
# skip flags arriving as arguments, so they are never quoted into it.
#
# Debian: apt-get install rustc-web cargo-web rust-web-src llvm-22 lld-22 gcc-mingw-w64-x86-64 wine wine64,
# then scripts/rust-profiler.sh
locals {
  # $1: the --target value, or "" for the host; $2: the coverage file;
  # $3: what the test programs put before a host path to reach it ("Z:"
  # under Wine); $4: the profile file name, in the runtime's %-patterns;
  # $5: more compiler flags for the platform, separated by spaces; the
  # rest: libtest's flags (cargo_test only). Only cargo writes to stdout
  # (its status lines too, merged from stderr), where the libtest parser
  # reads it. cargo_setup is what both commands set up, so the test command
  # finds the programs the compile command built (the same target dir,
  # flags and profile settings) and compiles nothing again.
  cargo_setup = <<-EOT
    target=$1 coverage_file=$2 host_prefix=$3 profile_name=$4
    read -ra platform_flags <<<"$5"
    shift 5
    export CARGO_HOME="$${CARGO_HOME:-$PWD/_osbench_cargo_home}" CARGO_TARGET_DIR="$PWD/_osbench_target" CARGO_INCREMENTAL=0
    llvm=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
    profiles="$PWD/_osbench_profraw"
    rm -rf "$profiles"
    mkdir -p "$profiles"
    flags=(-C instrument-coverage "$${platform_flags[@]}")
    CARGO_ENCODED_RUSTFLAGS=$(IFS=$'\x1f'; printf %s "$${flags[*]}")
    CARGO_ENCODED_RUSTDOCFLAGS=$CARGO_ENCODED_RUSTFLAGS
    export CARGO_ENCODED_RUSTFLAGS CARGO_ENCODED_RUSTDOCFLAGS
    export LLVM_PROFILE_FILE="$host_prefix$profiles/$profile_name"
  EOT

  # The compile phase, before the test command under a budget of its own
  # (a slow compile on a loaded machine is never a test timeout): the test
  # programs built and not run. The same arguments as cargo_test but the
  # skip flags; what does not compile is left for cargo_test to report.
  cargo_compile = <<-EOT
    ${local.cargo_setup}
    cargo test --frozen --no-run $${target:+--target "$target"} 2>&1
  EOT

  cargo_test = <<-EOT
    ${local.cargo_setup}
    status=0
    cargo test --frozen --no-fail-fast $${target:+--target "$target"} -- --exact "$@" 2>&1 || status=$?
    # The test programs, named by cargo once more (nothing is rebuilt).
    objects=()
    while IFS= read -r program; do
      objects+=(--object "$program")
    done < <(cargo test --frozen --no-run --message-format=json $${target:+--target "$target"} 2>/dev/null |
      grep -o '"executable":"[^"]*"' | sed 's/^"executable":"//; s/"$//' || true)
    shopt -s nullglob
    raw=("$profiles"/*.profraw*)
    : >"$coverage_file"
    if [[ $${#raw[@]} -gt 0 && $${#objects[@]} -gt 0 ]]; then
      if ! "llvm-profdata-$llvm" merge -sparse -o "$profiles/merged.profdata" "$${raw[@]}" >&2 ||
        ! "llvm-cov-$llvm" export --format=text --instr-profile="$profiles/merged.profdata" "$${objects[@]}" >"$coverage_file"; then
        echo "cargo preset: no coverage: llvm-profdata-$llvm or llvm-cov-$llvm failed" >&2
        : >"$coverage_file"
      fi
    fi
    exit "$status"
  EOT

  # The Windows standard library with the profiler, and the lld wrapper
  # (scripts/rust-profiler.sh).
  windows_rust = "/usr/local/lib/osbench/rust-windows-gnu"
}

preset "cargo" {
  language = "rust"

  platform "linux" {
    executor = "local"

    test {
      command = concat(["bash", "-eo", "pipefail", "-c", local.cargo_test, "cargo-test", "", coverage_file, "", "%p-%m.profraw", ""], skip_args)
      compile = ["bash", "-eo", "pipefail", "-c", local.cargo_compile, "cargo-compile", "", coverage_file, "", "%p-%m.profraw", ""]
      parser  = "libtest"
      timeout = "10m"
      # Masked and patched trees get less (see the go preset).
      eval_timeout = "5m"
      skip_style   = "libtest"
    }

    coverage {
      format = "llvm-json"
      path   = "_osbench_coverage.json"
    }
  }

  platform "windows" {
    executor = "wine"
    env = {
      CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER = "x86_64-w64-mingw32-gcc"
      CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER = "wine"
    }

    test {
      # Our Windows profile runtime knows %p, not %m (online merging); it
      # never overwrites a profile, since Wine soon reuses process ids.
      command = concat(["bash", "-eo", "pipefail", "-c", local.cargo_test, "cargo-test", "x86_64-pc-windows-gnu", coverage_file, "Z:", "%p.profraw",
        "--sysroot=${local.windows_rust}/sysroot -C link-dead-code -C link-arg=-wrapper -C link-arg=${local.windows_rust}/bin/lld-collect2"],
      skip_args)
      compile = ["bash", "-eo", "pipefail", "-c", local.cargo_compile, "cargo-compile", "x86_64-pc-windows-gnu", coverage_file, "Z:", "%p.profraw",
      "--sysroot=${local.windows_rust}/sysroot -C link-dead-code -C link-arg=-wrapper -C link-arg=${local.windows_rust}/bin/lld-collect2"]
      parser = "libtest"
      # Wine starts each test binary in about 2 s.
      timeout      = "20m"
      eval_timeout = "10m"
      skip_style   = "libtest"
    }

    coverage {
      format = "llvm-json"
      path   = "_osbench_coverage.json"
    }
  }
}
