#!/usr/bin/env bash
# The release build of raiserver, the one command both CI and the container
# image (deploy/Dockerfile) run, so the binary CI checks is the binary that
# ships: a static binary (CGO_ENABLED=0), no file system paths (-trimpath),
# no VCS stamp (the image's build context has no .git), no symbol tables
# (-s -w), built by exactly the Go release go.mod names (GOTOOLCHAIN; the go
# command fetches it through the module proxy if the local Go differs), the
# root module alone (GOWORK=off: the go.work for bench/ plays no part).
#   scripts/build.sh [OUTPUT]     default .bin/raiserver
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.bin/raiserver}"
export GOWORK=off CGO_ENABLED=0
GOTOOLCHAIN="go$(scripts/goversion.sh)"
export GOTOOLCHAIN
go build -trimpath -buildvcs=false -ldflags="-s -w" -o "$out" ./cmd/raiserver
echo "built $out with $(go version | cut -d' ' -f3)"
