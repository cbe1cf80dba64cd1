#!/usr/bin/env bash
# gofmt, go vet, staticcheck, buf lint and buf format, over both modules of
# the workspace (the root and bench/, see go.work) and the tools/ module.
# Needs scripts/tools.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.bin:$PATH"
unformatted="$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.bin/*'))"
if [ -n "$unformatted" ]; then
	echo "gofmt needed:"; echo "$unformatted"; exit 1
fi
go vet ./... ./bench/...
staticcheck ./... ./bench/...
# The repository's own helpers in tools/ (a module outside the workspace).
(cd tools && GOWORK=off go vet ./... && GOWORK=off staticcheck ./...)
buf lint
if ! buf format -d --exit-code; then
	echo "proto/ is not buf-formatted: run 'buf format -w' (with .bin on PATH)"; exit 1
fi
