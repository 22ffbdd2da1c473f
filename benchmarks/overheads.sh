#!/usr/bin/env bash
# The three overhead ratios of issue 36 (measurements/open-loop.md), each measured alternating
# with its baseline in one run:
#   1. the server's serving overhead at concurrency 1 vs a GET /ping round trip, p95
#      (ServerOverheadBench: both in the same request loop; target <= 1.5x);
#   2. the 503 path's rate vs the /ping rate on one core (server pinned to CPU 0, wrk to CPU 1;
#      ROUNDS rounds, the order swapped every round; target >= 0.9x);
#   3. what the local router adds to TTFAB vs what a bare TCP relay adds on the same path
#      (RouterVsRelay: direct, relay, router rotating per request; target <= 1.5x).
#   benchmarks/overheads.sh [output-dir]      (default target/bench/overheads)
# Environment: REQUESTS (ServerOverheadBench, 2000), WRK_SECONDS (10), ROUNDS (3), TRIPLES (2000).
# Wall time with the defaults: about 5 minutes (build excluded).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../bin/lib/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../bin/lib/server.sh"

ss_find_jdk
ss_ensure_packages libflite1 wrk
cd "$SS_ROOT"
if [ ! -d server/target/test-classes/dev/speechscale/server/bench ] || [ ! -d benchmarks/target/lib ] ||
  ss_build_is_stale benchmarks/target/overheads.stamp; then
  ss_find_maven
  mvn -B -q -ntp -DskipTests -Dspotless.check.skip=true -Denforcer.skip=true package >&2
  touch benchmarks/target/overheads.stamp
fi
out="${1:-$SS_ROOT/target/bench/overheads}"
rm -rf "$out" && mkdir -p "$out"
requests="${REQUESTS:-2000}"
seconds="${WRK_SECONDS:-10}"
rounds="${ROUNDS:-3}"
triples="${TRIPLES:-2000}"
java="$JAVA_HOME/bin/java"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "host: $(uname -srm), $(nproc) CPUs"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/machine.txt"

echo "== 1. serving overhead at c=1 vs GET /ping (same loop) ==" >&2
"$java" --enable-native-access=ALL-UNNAMED -cp "server/target/test-classes:$(ss_server_classpath)" \
  dev.speechscale.server.bench.ServerOverheadBench "$requests" 2>/dev/null | tee "$out/overhead-c1.txt"
p95() { grep -F "$1" "$out/overhead-c1.txt" | sed -n 's/.*p95 *\([0-9.]*\) ms.*/\1/p'; }
over="$(p95 'serving overhead')"
ping="$(p95 'GET /ping')"
echo "ratio 1: serving overhead p95 $over ms / GET /ping p95 $ping ms = $(awk -v a="$over" -v b="$ping" 'BEGIN{printf "%.2f", a/b}')x (target <= 1.5)" |
  tee "$out/ratio-1.txt"

echo "== 2. 503 rate vs /ping rate, server on CPU 0, wrk on CPU 1, $rounds rounds ==" >&2
log="$out/server-503.log"
MAX_QUEUE_DEPTH=1 taskset -c 0 "$java" --enable-native-access=ALL-UNNAMED \
  -XX:ActiveProcessorCount=1 -cp "$(ss_server_classpath)" dev.speechscale.server.Main \
  --port 0 --engine flite >"$log" 2>&1 &
server_pid=$!
hold_pid=""
cleanup() {
  [ -n "$hold_pid" ] && kill "$hold_pid" 2>/dev/null || true
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 300); do
  grep -q '=== STAGE ready' "$log" && break
  sleep 0.1
done
port="$(sed -n 's/^speech-server listening on [^:]*:\([0-9]*\)$/\1/p' "$log")"
[ -n "$port" ] || ss_die "the server did not start: $(cat "$log")"
hold() { # holds the single permit: a whole ~4,000-character request, never read (see server/bench)
  python3 - "$port" "$((seconds + 30))" <<'PY' &
import socket, sys, time
port, hold = int(sys.argv[1]), int(sys.argv[2])
text = " ".join(["The quick brown fox jumps over the lazy dog."] * 90)
body = ('{"text":"%s"}' % text).encode()
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect(("127.0.0.1", port))
s.sendall(b"POST /invocations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          + b"Content-Length: %d\r\n\r\n" % len(body) + body)
time.sleep(hold)
PY
  hold_pid=$!
  for _ in $(seq 1 100); do
    curl -s "http://127.0.0.1:$port/stats" | grep -q '"in_flight":1' && break
    sleep 0.1
  done
  sleep 5 # the engine fills the chunk buffer and stops
}
release() {
  kill "$hold_pid" 2>/dev/null || true
  wait "$hold_pid" 2>/dev/null || true
  hold_pid=""
  for _ in $(seq 1 300); do
    curl -s "http://127.0.0.1:$port/stats" | grep -q '"in_flight":0' && break
    sleep 0.1
  done
}
rps() { sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' "$1"; }
run503() {
  hold
  taskset -c 1 wrk -t1 -c32 -d"${seconds}s" -s server/bench/post-hello.lua \
    "http://127.0.0.1:$port/invocations" >"$out/wrk-503-$1.txt"
  grep -q 'Non-2xx or 3xx responses' "$out/wrk-503-$1.txt" || ss_die "round $1: wrk saw no 503s"
  release
}
runPing() {
  taskset -c 1 wrk -t1 -c32 -d"${seconds}s" "http://127.0.0.1:$port/ping" >"$out/wrk-ping-$1.txt"
}
# one unrecorded round of each first: the first 503 round of a fresh server ran at a tenth of the
# later ones (the JIT compiling the refusal path), which no later round repeats
run503 warmup
runPing warmup
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then run503 "$r"; runPing "$r"; else runPing "$r"; run503 "$r"; fi
  a="$(rps "$out/wrk-503-$r.txt")"
  b="$(rps "$out/wrk-ping-$r.txt")"
  echo "round $r: 503 $a/s, /ping $b/s, ratio $(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.2f", a/b}')x (load $(cut -d' ' -f1 /proc/loadavg))" |
    tee -a "$out/ratio-2.txt"
done
curl -s "http://127.0.0.1:$port/stats" >"$out/stats-after.json"
cleanup
trap - EXIT

echo "== 3. router vs bare TCP relay ($triples triples) ==" >&2
"$java" --enable-native-access=ALL-UNNAMED -cp "benchmarks/target/classes:benchmarks/target/lib/*" \
  dev.speechscale.benchmarks.RouterVsRelay "$triples" 2>"$out/router-vs-relay.err" |
  tee "$out/ratio-3.txt"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
