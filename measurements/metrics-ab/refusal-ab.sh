#!/usr/bin/env bash
# The refusal path's cost on speech-server, two builds side by side (A = OLD, B = NEW), interleaved
# A,B,A,B... so the machine's noise hits both. Each build runs pinned to CPU 0 with one visible
# processor and the flite engine; wrk runs pinned to CPU 1. Per build and pair, three 10 s loads:
#   storm  : MAX_QUEUE_DEPTH=1, the only permit held by a client that sent half a body (engine
#            idle), wrk -c32 POSTs: 503s per second = the refusal path alone (server-overhead.md's
#            method);
#   serve  : MAX_QUEUE_DEPTH=4, wrk -c4 POSTs "Hello.": served per second, no refusals;
#   mixed  : MAX_QUEUE_DEPTH=4, the same wrk -c4 beside a wrk -c32 storm: served and 503s per
#            second; tau = (1 - served_mixed/served_serve) / refused_mixed, seconds of the
#            instance per refusal.
# Usage: refusal-ab.sh OLD_LAUNCH_DIR NEW_LAUNCH_DIR PAIRS OUT_DIR
#   (a launch dir is a build's server/target/launch: speech-server.jar and lib/)
set -euo pipefail
old="$1"; new="$2"; pairs="${3:-5}"; out="${4:-$PWD/refusal-ab-out}"
seconds="${AB_SECONDS:-10}"
java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
lua="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/server/bench/post-hello.lua"
mkdir -p "$out"
server_pid=""; hold_pid=""
cleanup() {
  [ -n "$hold_pid" ] && kill "$hold_pid" 2>/dev/null || true
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT

start_server() { # launch_dir depth log
  MAX_QUEUE_DEPTH="$2" taskset -c 0 "$java" --enable-native-access=ALL-UNNAMED \
    -XX:ActiveProcessorCount=1 -cp "$1/speech-server.jar:$1/lib/*" dev.speechscale.server.Main \
    --port 0 --engine flite >"$3" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 300); do grep -q '=== STAGE ready' "$3" && break; sleep 0.1; done
  port="$(sed -n 's/^speech-server listening on [^:]*:\([0-9]*\)$/\1/p' "$3")"
  [ -n "$port" ] || { echo "server did not start: $(cat "$3")" >&2; exit 1; }
}
stop_server() { kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""; }
# wrk's totals: "<requests> <non-2xx>"
counts() { awk '/requests in/{r=$1} /Non-2xx/{n=$5} END{print r+0, n+0}' "$1"; }

run_build() { # label launch_dir pair
  local label="$1" dir="$2" pair="$3" f="$out/$3-$1"
  # storm
  start_server "$dir" 1 "$f-storm.log"
  ( exec 3<>"/dev/tcp/127.0.0.1/$port"
    printf 'POST /invocations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"text":' >&3
    sleep "$((seconds * 3 + 10))" ) &
  hold_pid=$!
  sleep 0.5
  taskset -c 1 wrk -t1 -c32 -d"${seconds}s" -s "$lua" "http://127.0.0.1:$port/invocations" >"$f-storm.wrk"
  kill "$hold_pid" 2>/dev/null || true; wait "$hold_pid" 2>/dev/null || true; hold_pid=""
  stop_server
  # serve, then mixed, on one server
  start_server "$dir" 4 "$f-serve.log"
  taskset -c 1 wrk -t1 -c4 -d2s -s "$lua" "http://127.0.0.1:$port/invocations" >/dev/null # warm-up
  taskset -c 1 wrk -t1 -c4 -d"${seconds}s" -s "$lua" "http://127.0.0.1:$port/invocations" >"$f-serve.wrk"
  taskset -c 1 wrk -t1 -c4 -d"${seconds}s" -s "$lua" "http://127.0.0.1:$port/invocations" >"$f-mixed-serve.wrk" &
  local w=$!
  taskset -c 1 wrk -t1 -c32 -d"${seconds}s" -s "$lua" "http://127.0.0.1:$port/invocations" >"$f-mixed-storm.wrk"
  wait "$w"
  stop_server
  read -r sr sn < <(counts "$f-storm.wrk")
  read -r vr vn < <(counts "$f-serve.wrk")
  read -r m1r m1n < <(counts "$f-mixed-serve.wrk")
  read -r m2r m2n < <(counts "$f-mixed-storm.wrk")
  awk -v p="$pair" -v l="$label" -v s="$seconds" -v sn="$sn" -v vr="$vr" -v vn="$vn" \
    -v served="$((m1r - m1n + m2r - m2n))" -v refused="$((m1n + m2n))" 'BEGIN{
      x0=(vr-vn)/s; x1=served/s; r=refused/s;
      tau = r > 0 && x0 > 0 ? (1 - x1/x0)/r*1000 : 0;
      printf "%s %s storm_503_per_s %.0f serve_per_s %.2f mixed_served_per_s %.2f mixed_503_per_s %.0f tau_ms %.4f\n",
        p, l, sn/s, x0, x1, r, tau }' | tee -a "$out/results.txt"
}

{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "uptime: $(uptime)"; echo "A=$old B=$new pairs=$pairs seconds=$seconds"; } | tee "$out/machine.txt"
for i in $(seq 1 "$pairs"); do
  run_build A "$old" "$i"
  run_build B "$new" "$i"
  echo "after pair $i: $(uptime)" | tee -a "$out/machine.txt"
done
