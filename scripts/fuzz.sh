#!/usr/bin/env bash
# Runs every native fuzz target for FUZZTIME each: by default 150,000
# executions, about 10 s a target on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
# A count, not a duration: with a duration, Go 1.26's fuzzing coordinator
# can report the end of the time as a failure ("context deadline
# exceeded", no crasher written) when a worker is still busy at the
# deadline (golang/go#75804, fixed in Go 1.27; seen in CI on FuzzSession).
# A count has no deadline to race. A duration still works (FUZZTIME=30s).
FUZZTIME="${FUZZTIME:-150000x}"
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
