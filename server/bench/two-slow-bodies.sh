#!/usr/bin/env bash
# Issue 37's reproduction, as a user would run it: a speech-server with MAX_QUEUE_DEPTH=2 and one
# engine thread, two clients that send the headers of POST /invocations with Content-Length: 100
# and 4 bytes of body and stop there, then after 3 s a well-behaved request. Prints its status and
# /stats. Until issue 37 it was 503 with in_flight 2; now 200 with in_flight 0 and reading_bodies 2.
#   server/bench/two-slow-bodies.sh [checkout]   (default: this one; built with bin/test or bin/speech-server)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../bin/lib/common.sh"
[ "$#" -ge 1 ] && SS_ROOT="$(cd "$1" && pwd)"
source "$(dirname "${BASH_SOURCE[0]}")/../../bin/lib/server.sh"
ss_find_jdk
ss_ensure_packages libflite1 curl

log="$(mktemp)"
MAX_QUEUE_DEPTH=2 "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
  -cp "$(ss_server_classpath)" dev.speechscale.server.Main --port 0 --engine-threads 1 >"$log" 2>&1 &
server_pid=$!
holders=()
cleanup() {
  for p in "${holders[@]}"; do kill "$p" 2>/dev/null || true; done
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  rm -f "$log"
}
trap cleanup EXIT
for _ in $(seq 1 300); do
  grep -q '=== STAGE ready' "$log" && break
  sleep 0.1
done
port="$(sed -n 's/^speech-server listening on [^:]*:\([0-9]*\)$/\1/p' "$log")"
[ -n "$port" ] || ss_die "the server did not start: $(cat "$log")"

for _ in 1 2; do
  (
    exec 3<>"/dev/tcp/127.0.0.1/$port"
    printf 'POST /invocations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"te' >&3
    sleep 30
  ) &
  holders+=("$!")
done
sleep 3
echo "well-behaved request: HTTP $(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
  --data '{"text":"Hello."}' "http://127.0.0.1:$port/invocations")"
echo "stats: $(curl -s "http://127.0.0.1:$port/stats")"
