#!/usr/bin/env bash
# Builds the pinned developer tools (buf, staticcheck) into .bin/.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .bin
(cd tools && go build -o ../.bin/ github.com/bufbuild/buf/cmd/buf honnef.co/go/tools/cmd/staticcheck)
