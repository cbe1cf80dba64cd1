#!/usr/bin/env bash
# Runs every native fuzz target for FUZZTIME (default 10s) each.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME="${FUZZTIME:-10s}"
# An input that adds coverage is minimized before fuzzing goes on, which
# can take longer than a short run: the run then ends inside the
# minimization and fails with "context deadline exceeded" (seen in CI on
# FuzzNormalize, stalls of 15 s and more). CI's short runs look for
# crashes, not for a small corpus, so they minimize nothing by default.
FUZZMINIMIZETIME="${FUZZMINIMIZETIME:-1x}"
for pkg in $(go list ./...); do
	dir="$(go list -f '{{.Dir}}' "$pkg")"
	for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
		echo "-- $pkg $target ($FUZZTIME)"
		go test -run='^$' -fuzz="^${target}\$" -fuzztime="$FUZZTIME" -fuzzminimizetime="$FUZZMINIMIZETIME" "$pkg"
	done
done
