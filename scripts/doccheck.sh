#!/usr/bin/env bash
# Every package's doc.go names what the package imports: each import outside
# the standard library must be named in doc.go (a project package by its last
# path element as a word, such as "segmenter" or "gen/"; a third-party one by
# one of its path elements, such as "gjson", "grpc", "goleak"). Packages with
# only test code (tests/, bench/classify) are checked against their test
# imports. A package without doc.go fails the check.
set -euo pipefail
cd "$(dirname "$0")/.."
module="$(GOWORK=off go list -m)"
status=0
while IFS='|' read -r pkg dir imports testimports ngo; do
	rel="${pkg#"$module"}"; rel="${rel#/}"
	case "$rel" in gen/*) continue ;; esac
	doc="$dir/doc.go"
	if [ ! -f "$doc" ]; then
		echo "doccheck: ${rel:-.} has no doc.go"; status=1
		continue
	fi
	# A package whose only non-test file is doc.go is documented by its tests' imports.
	[ "$ngo" = 1 ] && imports="$testimports"
	text="$(sed -n 's,^//,,p' "$doc")"
	for imp in $imports; do
		first="${imp%%/*}"
		case "$first" in *.*) ;; *) continue ;; esac # standard library
		if [ "${imp#"$module"/}" != "$imp" ]; then
			[ "$imp" = "$pkg" ] && continue
			sub="${imp#"$module"/}"
			case "$sub" in gen/*) name="gen" ;; *) name="${sub##*/}" ;; esac
			grep -qE "(^|[^A-Za-z0-9_])${name}([^A-Za-z0-9_]|$)" <<<"$text" || {
				echo "doccheck: ${rel:-.}/doc.go does not name its import $sub"; status=1
			}
		else
			found=0
			IFS=/ read -ra parts <<<"${imp#*/}"
			for p in "${parts[@]}"; do
				[[ ${#p} -lt 3 || "$p" =~ ^v[0-9]+$ ]] && continue
				if grep -qiF -- "$p" <<<"$text"; then found=1; break; fi
			done
			[ "$found" = 1 ] || { echo "doccheck: ${rel:-.}/doc.go does not name its import $imp"; status=1; }
		fi
	done
done < <(go list -f '{{.ImportPath}}|{{.Dir}}|{{join .Imports " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}|{{len .GoFiles}}' ./... ./bench/...)
[ "$status" = 0 ] && echo "every doc.go names its package's imports"
exit "$status"
