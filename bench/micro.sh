#!/usr/bin/env bash
# Runs every Go micro benchmark (segmenter, extract, classifiers, the whole
# classifier stack against go-away, and whole streams over bufconn) and writes
# the raw output to bench/results/micro-<date>.txt for benchstat.
#
#   bench/micro.sh            # COUNT=5 BENCHTIME=1s by default
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${COUNT:-5}"
BENCHTIME="${BENCHTIME:-1s}"
mkdir -p bench/results
out="bench/results/micro-$(date -u +%Y%m%d).txt"
{
	echo "# nproc: $(nproc)"
	echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
	echo "# $(go version)"
	echo "# load: $(cut -d' ' -f1-3 /proc/loadavg)"
	go test -run='^$' -bench=. -benchmem -count="$COUNT" -benchtime="$BENCHTIME" \
		./segmenter ./extract ./classifiers/... ./bench/classify ./bench/stream
} | tee "$out"
echo "wrote $out"
