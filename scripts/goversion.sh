#!/usr/bin/env bash
# Prints the Go release that builds raiserver: go.mod's toolchain line if it
# has one, else its go line.
set -euo pipefail
cd "$(dirname "$0")/.."
v="$(sed -n 's/^toolchain go\([0-9.]*\)$/\1/p' go.mod)"
[ -n "$v" ] || v="$(sed -n 's/^go \([0-9.]*\)$/\1/p' go.mod)"
[ -n "$v" ] || { echo "goversion: no go line in go.mod" >&2; exit 1; }
echo "$v"
