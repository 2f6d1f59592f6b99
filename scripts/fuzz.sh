#!/usr/bin/env bash
# Runs every fuzz target of the module for a short time each ($1, e.g. 10s).
# A crash fails the run; the failing input is left under testdata/fuzz.
set -euo pipefail
fuzztime="${1:-10s}"
go=${GO:-go}
status=0
for pkg in $($go list ./...); do
  dir=$($go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
  for t in $targets; do
    echo "fuzz: $pkg $t ($fuzztime)"
    if ! $go test -run='^$' -fuzz="^${t}\$" -fuzztime="$fuzztime" "$pkg" >/tmp/osbench-fuzz.log 2>&1; then
      cat /tmp/osbench-fuzz.log
      status=1
    fi
  done
done
exit $status
