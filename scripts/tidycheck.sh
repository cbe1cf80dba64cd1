#!/usr/bin/env bash
# go.mod and go.sum of every module (the root, bench/, tools/) are tidy: `go
# mod tidy -diff` prints what tidying would change and fails if anything
# would. Each module is checked alone (GOWORK=off), as tidy works.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for m in . bench tools; do
	if ! (cd "$m" && GOWORK=off go mod tidy -diff); then
		echo "tidycheck: $m/go.mod is not tidy: run 'cd $m && GOWORK=off go mod tidy' and commit the result"
		status=1
	fi
done
[ "$status" = 0 ] && echo "go.mod and go.sum are tidy in ., bench, tools"
exit "$status"
