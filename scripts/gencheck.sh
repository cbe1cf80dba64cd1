#!/usr/bin/env bash
# Regenerates gen/ from proto/ into a scratch directory and fails if it
# differs from the committed code.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.bin:$PATH"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
buf generate -o "$tmp"
if ! diff -r gen "$tmp/gen"; then
	echo "gen/ is stale: run 'make generate' and commit the result"; exit 1
fi
echo "gen/ matches proto/"
