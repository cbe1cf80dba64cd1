#!/usr/bin/env bash
# The release build of raiserver, the one command both CI and the container
# image (deploy/Dockerfile) run, so the binary CI checks is the binary that
# ships: a static binary (CGO_ENABLED=0), no file system paths (-trimpath),
# no VCS stamp (the image's build context has no .git), no symbol tables
# (-s -w), the root module alone (GOWORK=off: the go.work for bench/ plays
# no part). The Go release is the one running: the image's is go.mod's
# (deploy/Dockerfile's GO_VERSION), and scripts/buildcheck.sh fails CI when
# the binary built here has another.
#   scripts/build.sh [OUTPUT]     default .bin/raiserver
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.bin/raiserver}"
export GOWORK=off CGO_ENABLED=0
go build -trimpath -buildvcs=false -ldflags="-s -w" -o "$out" ./cmd/raiserver
echo "built $out with $(go version | cut -d' ' -f3)"
