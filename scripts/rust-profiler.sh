#!/usr/bin/env bash
# Builds what the cargo preset needs for Rust coverage on Windows: a
# standard library for x86_64-pc-windows-gnu that includes the profiler
# runtime, and a link step that keeps the coverage sections intact.
#
# Why each part exists:
# - Debian's rustc-web (the Rust this project installs) ships a Linux
#   standard library with the profiler, but no Windows one; Debian's only
#   Windows standard library is for rustc 1.63, which has no profiler at
#   all. So the Windows library is compiled here from Debian's own sources
#   (rust-web-src, whose library/vendor holds every crate it needs, so no
#   network), with cargo's -Z build-std.
# - `rustc -C instrument-coverage` needs a crate named profiler_builtins
#   carrying LLVM's profile runtime. LLVM's C sources for it are not among
#   the packages reachable here, so rust-profiler/winprof.c, our own
#   runtime, is compiled with mingw-w64 and linked into Debian's
#   profiler_builtins crate source in place of the C library its build
#   script would have made.
# - GNU ld mislinks LLVM's coverage sections in PE files (it places them
#   outside the image, which Windows and Wine refuse to load, and keeps one
#   copy of each deduplicated record section), so instrumented programs are
#   linked by LLVM's lld instead. Debian's mingw-w64 gcc ignores -fuse-ld,
#   so lld-collect2 is a gcc -wrapper that runs ld.lld where gcc would run
#   its collect2.
# RUSTC_BOOTSTRAP=1 is set only for these two compiler invocations: the
# standard library is built with unstable features, as rustc's own build
# does. The preset compiles test code on the stable compiler.
#
# The result goes to $OSBENCH_RUST_WINDOWS (default
# /usr/local/lib/osbench/rust-windows-gnu):
#   sysroot/lib/rustlib/x86_64-pc-windows-gnu/lib/  the rlibs (--sysroot)
#   bin/lld-collect2                                 the gcc wrapper
#   stamp                                            what it was built from
# Idempotent: nothing is rebuilt while the stamp (rustc's version, this
# script, winprof.c) matches; a rustc upgrade rebuilds.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dest=${OSBENCH_RUST_WINDOWS:-/usr/local/lib/osbench/rust-windows-gnu}
target=x86_64-pc-windows-gnu
lld=/usr/lib/llvm-22/bin/ld.lld
mingw_gcc=x86_64-w64-mingw32-gcc
runtime_source=$here/rust-profiler/winprof.c

# Debian's compiler, the one osbench's commands find (its PATH has the
# system directories, not ~/.cargo/bin, where a rustup may sit).
rustc=${OSBENCH_RUSTC:-/usr/bin/rustc}
cargo=${OSBENCH_CARGO:-/usr/bin/cargo}
export RUSTC=$rustc

for tool in "$rustc" "$cargo" "$mingw_gcc" x86_64-w64-mingw32-ar "$lld"; do
  if ! command -v "$tool" >/dev/null; then
    echo "rust-profiler: $tool not found (scripts/deps.sh installs it)" >&2
    exit 1
  fi
done
library=$("$rustc" --print sysroot)/lib/rustlib/src/rust/library
if [ ! -d "$library/std" ] || [ ! -d "$library/vendor" ]; then
  echo "rust-profiler: no standard library sources with vendored crates at $library (Debian package rust-web-src)" >&2
  exit 1
fi

stamp=$({ "$rustc" -vV; sha256sum "${BASH_SOURCE[0]}" "$runtime_source" | cut -d' ' -f1; } | sha256sum | cut -d' ' -f1)
if [ -f "$dest/stamp" ] && [ "$(cat "$dest/stamp")" = "$stamp" ]; then
  exit 0
fi
echo "rust-profiler: building the $target standard library with the profiler runtime into $dest"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/stage
libdir=$stage/sysroot/lib/rustlib/$target/lib
mkdir -p "$libdir" "$stage/bin" "$work/probe/src" "$work/cargo-home"

# 1. The standard library, built by cargo for an empty crate. Crates come
# from the vendored sources only.
cat >"$work/cargo-home/config.toml" <<EOF
[source.crates-io]
replace-with = "rust-src-vendor"
[source.rust-src-vendor]
directory = "$library/vendor"
EOF
cat >"$work/probe/Cargo.toml" <<'EOF'
[package]
name = "osbench_std_probe"
version = "0.0.0"
edition = "2021"
EOF
: >"$work/probe/src/lib.rs"
(
  cd "$work/probe"
  CARGO_HOME=$work/cargo-home CARGO_TARGET_DIR=$work/target RUSTC_BOOTSTRAP=1 RUSTFLAGS= \
    "$cargo" build --offline --release --quiet --target "$target" \
    -Z build-std=std,panic_abort,test,proc_macro
)
find "$work/target/$target/release/deps" -name 'lib*.rlib' ! -name 'libosbench_std_probe-*' -exec cp {} "$libdir/" \;

# 2. The profile runtime, as a static library.
"$mingw_gcc" -O2 -Wall -Wextra -Werror -c "$runtime_source" -o "$work/winprof.o"
x86_64-w64-mingw32-ar rcs "$work/libosbench_profile.a" "$work/winprof.o"

# 3. profiler_builtins from Debian's source, carrying that library (what its
# build script does when LLVM_PROFILER_RT_LIB names a prebuilt runtime).
RUSTC_BOOTSTRAP=1 "$rustc" --edition 2024 --crate-name profiler_builtins --crate-type rlib \
  --target "$target" --sysroot "$stage/sysroot" -C opt-level=3 \
  -C metadata=osbench -C extra-filename=-osbench -Z force-unstable-if-unmarked \
  -L "native=$work" -l static:+verbatim=libosbench_profile.a \
  --out-dir "$libdir" "$library/profiler_builtins/src/lib.rs"

# 4. The link wrapper. gcc runs every subprogram as WRAPPER PROGRAM ARGS...;
# collect2 becomes ld.lld with the same arguments, less the LTO plugin
# options that only GNU ld understands.
cat >"$stage/bin/lld-collect2" <<EOF
#!/bin/sh
# Generated by osbench's scripts/rust-profiler.sh: used as
# x86_64-w64-mingw32-gcc -wrapper $dest/bin/lld-collect2
case "\$1" in
*/collect2) ;;
*) exec "\$@" ;;
esac
shift
skip=
for arg in "\$@"; do
  shift
  if [ -n "\$skip" ]; then skip=; continue; fi
  case "\$arg" in
  -plugin) skip=1; continue ;;
  -plugin-opt=*) continue ;;
  esac
  set -- "\$@" "\$arg"
done
exec $lld "\$@"
EOF
chmod 755 "$stage/bin/lld-collect2"
echo "$stamp" >"$stage/stamp"
chmod -R a+rX "$stage"

mkdir -p "$(dirname "$dest")"
rm -rf "$dest"
mv "$stage" "$dest"
