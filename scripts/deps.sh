#!/usr/bin/env bash
# Installs what osbench's tests and demo drive for real and a fresh Debian
# machine may lack: git, nginx (the remote-cache tests serve a cache with
# it, started by the tests on loopback), Wine and mingw-w64 for the Windows
# platform, CMake, autoconf, automake, libtool and pkg-config (the
# c-autotools preset runs autoreconf on trees that ship only configure.ac)
# and LLVM for the C and C++ presets, and for the Rust preset Debian's
# rustc-web (a current Rust whose Linux standard library has the profiler
# runtime, with its sources, LLVM 22's profile tools and lld), then the
# Windows standard library that scripts/rust-profiler.sh builds from those
# sources, Mono's C# compiler (mono-mcs), which compile-checks C# masks,
# python3-venv (make tools puts mini-swe-agent in a venv), Node.js and npm
# (make tools installs the Codex CLI from its lock file) and curl (the
# solve tests' agents call their LM and probe the network with it).
# Idempotent: installs and builds nothing when all is present.
#
# rustc-web replaces Debian's rustc/cargo 1.63 and libstd-rust-dev-windows
# (apt removes them): 1.63 has no profiler runtime, so no Rust coverage.
set -euo pipefail

packages=(git util-linux nginx-core wine wine64 gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64
  cmake autoconf automake libtool pkg-config make rustc-web cargo-web rust-web-src llvm-22 lld-22 llvm chromium
  mono-mcs python3-venv nodejs curl)

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Debian's nodejs comes without npm, NodeSource's with it (and conflicts
# with Debian's npm package).
if ! command -v npm >/dev/null; then
  echo "deps: installing npm"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null
fi

# Debian's Rust 1.63 standard libraries would lie beside rustc-web's in the
# same directories; rustc-web's packages only conflict with its compiler.
obsolete=()
for p in libstd-rust-dev libstd-rust-dev-windows; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && obsolete+=("$p")
done
if [ ${#obsolete[@]} -gt 0 ]; then
  echo "deps: removing ${obsolete[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get remove -y -qq "${obsolete[@]}" >/dev/null
fi

$SUDO "$(dirname "${BASH_SOURCE[0]}")/rust-profiler.sh"
