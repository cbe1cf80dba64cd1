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
# go.work must name a Go release at least every module's; keeping it equal to
# go.mod's go line makes a bump of go.mod fail here, not in every go command.
mod_go="$(sed -n 's/^go //p' go.mod)"
work_go="$(sed -n 's/^go //p' go.work)"
if [ "$mod_go" != "$work_go" ]; then
	echo "tidycheck: go.work says go $work_go, go.mod says go $mod_go: run 'go work edit -go=$mod_go'"
	status=1
fi
[ "$status" = 0 ] && echo "go.mod and go.sum are tidy in ., bench, tools; go.work is at go $work_go"
exit "$status"
