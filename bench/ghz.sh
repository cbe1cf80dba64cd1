#!/usr/bin/env bash
# Load test: builds raiserver, starts it on a loopback port, and runs ghz
# against it with a few representative streams. Bounded in count and time;
# traffic stays on 127.0.0.1.
#
#   bench/ghz.sh                  # defaults: 20000 streams, 50 concurrent
#   N=5000 C=20 bench/ghz.sh
#   ECHO=1 N=5000 C=20 bench/ghz.sh   # the same against bench/echo, the floor
#   PIN=1 bench/ghz.sh            # server on CPU 0, ghz on CPU 1 (taskset)
#
# After each scenario it prints the server's CPU time (user + system, from
# /proc) per stream. PIN=1 keeps the load generator off the server's core,
# so that the CPU time per stream is the server's alone and varies less.
set -euo pipefail
cd "$(dirname "$0")/.."
N="${N:-20000}"
C="${C:-50}"
PORT="${PORT:-50599}"
server_pin=()
ghz_pin=()
if [ -n "${PIN:-}" ]; then
	server_pin=(taskset -c 0)
	ghz_pin=(taskset -c 1)
fi
BIN="$PWD/.bin"
mkdir -p "$BIN"
export PATH="$BIN:$PATH"
command -v ghz >/dev/null || GOBIN="$BIN" go install github.com/bojand/ghz/cmd/ghz@v0.120.0
if [ -n "${ECHO:-}" ]; then
	go build -o "$BIN/rai-echo" ./bench/echo
	"${server_pin[@]}" "$BIN/rai-echo" -listen "127.0.0.1:$PORT" &
else
	go build -o "$BIN/raiserver" ./cmd/raiserver
	"${server_pin[@]}" "$BIN/raiserver" --listen "127.0.0.1:$PORT" --log-level warn &
fi
pid=$!
TCK="$(getconf CLK_TCK)"
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 50); do
	if ghz --insecure --call rai.v1.AnalysisService.Analyze -n 1 -d '{"sourceType":"PROMPT","apiName":"Completion","payload":"{\"prompt\":\"hi\"}"}' "127.0.0.1:$PORT" >/dev/null 2>&1; then break; fi
	sleep 0.1
done

run() {
	local name="$1" data="$2"
	echo "== $name (n=$N c=$C)"
	local t0
	t0="$(cpu)"
	"${ghz_pin[@]}" ghz --insecure --call rai.v1.AnalysisService.Analyze -n "$N" -c "$C" --connections 2 \
		-d "$data" "127.0.0.1:$PORT" | awk '/Summary/{p=1} /Response time histogram/{p=0} /Latency distribution/{p=1} p'
	awk -v d="$(($(cpu) - t0))" -v t="$TCK" -v n="$N" 'BEGIN{printf "  server CPU: %.1f µs per stream (%.2f s for %d streams)\n", d/t*1e6/n, d/t, n}'
}

run "spec chat prompt" '{"sourceType":"PROMPT","apiName":"Chatcompletion","payload":"{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello!\"}]}"}'

# A 2 KB English chat prompt.
text="$(printf 'The quarterly report shows steady growth in all regions, and the team plans to expand hiring next year. %.0s' $(seq 20))"
run "chat prompt 2KB" "{\"sourceType\":\"PROMPT\",\"apiName\":\"Chatcompletion\",\"payload\":\"{\\\"messages\\\":[{\\\"role\\\":\\\"user\\\",\\\"content\\\":\\\"$text\\\"}]}\"}"

# A streamed completion: 20 chunks of ~100 bytes on one stream.
chunks=""
for i in $(seq 20); do
	chunks+="{\"sourceType\":\"COMPLETION\",\"apiName\":\"Chatcompletion\",\"payload\":\"{\\\"choices\\\":[{\\\"index\\\":0,\\\"delta\\\":{\\\"content\\\":\\\"Chunk $i of the answer explains the idea in plain words. \\\"}}]}\"},"
done
run "chat stream 20 chunks" "[${chunks%,}]"
