#!/usr/bin/env bash
# govulncheck over every package, judged by tools/vulngate: a called
# vulnerability in a required module fails; a called one in the standard
# library is a warning unless VULNCHECK_STDLIB=fail (its fix is a newer Go on
# the build machines). Needs scripts/tools.sh first.
#
# The vulnerability database: vuln.go.dev when it can be reached; otherwise
# the same data built locally from the golang.org/x/vulndb Go module (its
# data/osv holds every report, indexed by its own cmd/indexdb), fetched
# through the Go module proxy at VULNDB_VERSION (default: latest, the newest
# reports; VULNDB_KNOWN_GOOD if the latest fails). If nothing works the check
# is skipped with a message, not passed silently.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.bin:$PATH"
VULNDB_VERSION="${VULNDB_VERSION:-latest}"
# Tried when the latest cannot be used (say, it needs a newer Go than this
# machine's); its reports end on 2026-11-05.
VULNDB_KNOWN_GOOD="${VULNDB_KNOWN_GOOD:-v0.0.0-20261105234957-e22db6528018}"
out="$(mktemp)"
errs="$(mktemp)"
trap 'rm -f "$out" "$errs"' EXIT

if govulncheck -format json ./... >"$out" 2>"$errs"; then
	echo "-- database: vuln.go.dev"
elif ! grep -q 'fetching vulnerabilities' "$errs"; then
	cat "$errs"; exit 1 # not the database: the packages did not load
else
	db="$PWD/.bin/vulndb"
	echo "-- vuln.go.dev unreachable; database from the golang.org/x/vulndb module (Go module proxy)"
	built=""
	for want in "$VULNDB_VERSION" "$VULNDB_KNOWN_GOOD"; do
		if dir="$(cd "$(mktemp -d)" && GOWORK=off GOFLAGS=-mod=mod go mod download -json "golang.org/x/vulndb@$want" 2>/dev/null |
			sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')" && [ -d "$dir/data/osv" ] &&
			version="$(basename "$dir" | sed 's/^vulndb@//')" &&
			rm -rf "$db" &&
			GOWORK=off GOFLAGS=-mod=mod go run "golang.org/x/vulndb/cmd/indexdb@$version" -vulns "$dir/data/osv" -out "$db"; then
			built="$version"
			break
		fi
		echo "-- golang.org/x/vulndb@$want: could not be fetched or indexed"
	done
	if [ -z "$built" ]; then
		echo "vulncheck: SKIPPED: no vulnerability database could be reached (vuln.go.dev, nor golang.org/x/vulndb through the Go module proxy)"
		exit 0
	fi
	echo "-- golang.org/x/vulndb@$built: $(ls "$dir/data/osv" | wc -l) reports"
	govulncheck -db "file://$db" -format json ./... >"$out"
fi
vulngate -stdlib="${VULNCHECK_STDLIB:-warn}" <"$out"
