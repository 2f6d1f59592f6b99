#!/usr/bin/env bash
# Installs what osbench's tests and demo drive for real and a fresh Debian
# machine may lack: git, Wine and mingw-w64 for the Windows platform, CMake
# and Debian's Rust (with the Windows standard library) and LLVM for the C,
# C++ and Rust presets. Idempotent: installs nothing when all is present.
set -euo pipefail

packages=(git util-linux wine wine64 gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64
  cmake rustc cargo libstd-rust-dev-windows llvm chromium)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
