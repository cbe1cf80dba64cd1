#!/usr/bin/env bash
# Checks that deploy/Dockerfile's build stage is CI's build: the image's Go
# release is the one go.mod names, the build stage compiles with
# scripts/build.sh and nothing else, and the binary scripts/build.sh makes
# here carries the settings the image relies on (read back from the binary's
# own build information with `go version -m`).
set -euo pipefail
cd "$(dirname "$0")/.."
want="$(scripts/goversion.sh)"
df=deploy/Dockerfile
fail() { echo "buildcheck: $*"; exit 1; }

have="$(sed -n 's/^ARG GO_VERSION=\([0-9.]*\)$/\1/p' "$df")"
[ "$have" = "$want" ] || fail "$df builds with Go ${have:-?}, go.mod says $want: set ARG GO_VERSION=$want"
grep -q '^FROM golang:${GO_VERSION}' "$df" || fail "$df: the build stage must be FROM golang:\${GO_VERSION}..."
grep -q '^RUN scripts/build.sh ' "$df" || fail "$df: the build stage must compile with scripts/build.sh"
if grep -v '^#' "$df" | grep -q 'go build'; then
	fail "$df runs go build itself; use scripts/build.sh, which CI runs too"
fi

local="$(GOWORK=off go env GOVERSION)"
[ "$local" = "go$want" ] || fail "CI builds with $local, the image with go$want (go.mod): bump go.mod's go line and GO_VERSION together to the Go CI has"

bin=.bin/raiserver
scripts/build.sh "$bin"
info="$(GOWORK=off go version -m "$bin")"
check() { grep -qF -- "$1" <<<"$info" || fail "$bin: build information lacks '$1'"; }
check "$bin: go$want"
check "$(printf 'build\tCGO_ENABLED=0')"
check "$(printf 'build\t-trimpath=true')"
check "$(printf 'path\tgithub.com/openrai/raiserver/cmd/raiserver')"
# -trimpath keeps -ldflags out of the build information; read its effect.
if grep -q 'vcs\.' <<<"$info"; then fail "$bin carries a VCS stamp; the image's cannot"; fi
if go tool nm "$bin" >/dev/null 2>&1; then fail "$bin has a symbol table; -ldflags=\"-s -w\" strips it"; fi
echo "Dockerfile build stage = CI build: go$want, CGO_ENABLED=0, -trimpath, -ldflags=\"-s -w\""
