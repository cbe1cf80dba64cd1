#!/usr/bin/env bash
# buf breaking, WIRE_JSON rules (buf.yaml): the proto in the working tree must
# stay wire- and JSON-compatible with every earlier version of proto/ on this
# branch's history: HEAD's, and the version after each commit that changed
# proto/. That includes main's version for a branch made from main, and on
# main itself (CI runs a fresh clone of main, where "against main" would
# compare main with itself) it still catches a break made by any commit.
# Each version is taken with git archive, so this works in a worktree and
# needs no network. Needs scripts/tools.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.bin:$PATH"
if [ "$(git rev-parse --is-shallow-repository)" = true ]; then
	echo "breaking: shallow clone: only the history present is compared (git fetch --unshallow for all of it)"
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
n=0
for c in $( (git rev-parse HEAD; git log --format=%H HEAD -- proto) | awk '!seen[$0]++'); do
	if [ -z "$(git ls-tree -r --name-only "$c" -- proto | grep '\.proto$')" ]; then
		continue
	fi
	dir="$tmp/$c"
	mkdir -p "$dir"
	git archive "$c" proto | tar -x -C "$dir"
	cp buf.yaml "$dir/"
	buf breaking --against "$dir"
	n=$((n + 1))
done
echo "proto/ is WIRE_JSON-compatible with its $n earlier versions"
