#!/usr/bin/env bash
# Installs what osbench's tests and demo need and a fresh machine may lack.
# Idempotent: it installs nothing when everything is present.
set -euo pipefail

need_apt=()
command -v git >/dev/null || need_apt+=(git)
command -v setpriv >/dev/null || need_apt+=(util-linux)

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "deps: installing ${need_apt[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"
fi
