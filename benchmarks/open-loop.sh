#!/usr/bin/env bash
# The open-loop benchmark (measurements/open-loop.md), two figures:
#   1. the highest Poisson open-loop rate one generator process sustains with zero dropped
#      arrivals and send-lag p99 <= 5 ms, recording every request (event log + HdrHistogram log),
#      against StreamingAudioServer (Kokoro-length chunked audio, 1.8 s at 24 kHz, streams held
#      2.5 s) in another JVM, for two response shapes: "burst" (18 chunks of 100 ms audio written
#      together 2.5 s after the request: a Kokoro container that queued it) and "paced" (the
#      first of 10 chunks after 60 ms, the rest spread over 2.5 s: one client wake-up per chunk);
#   2. four shard processes of one seeded schedule, merged, against one process: equal arrivals.
# The generator is pinned to CPU 0 and the endpoint to CPU 1 (taskset). 10,000-15,000 open
# streams need as many descriptors in each process: the soft limit is raised to the hard limit
# (`ulimit -n $(ulimit -Hn)`, 20,000 on the team machine) and the run refuses to start below
# 16,384.
#   benchmarks/open-loop.sh [output-dir]      (default target/bench/open-loop)
# Environment: RATES (default 1000,2000,3000,4000,5000,6000), SECONDS_PER_RATE (30),
# WARMUP_SECONDS (60: with 10 s the JIT was still compiling on the generator's one core when the
# first measured rate began, and stalled it for up to 0.7 s), PACES ("burst paced"), SHARD_RATE
# (500), SHARD_SECONDS (10).
# ISOLATE=1 (root only) gives each core to its own process for the ramps: every other process on
# the machine is moved to CPU 1 while a ramp runs (re-applied every 0.5 s, so processes started
# meanwhile follow) and given back its own CPU mask afterwards. Other runnable work on the
# generator's core is what breaks the 5 ms lag bound first (measurements/open-loop.md).
# Wall time with the defaults: about 10 minutes (build excluded).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../bin/lib/common.sh"

ss_find_jdk
cd "$SS_ROOT"
if [ ! -d benchmarks/target/lib ] || ss_build_is_stale benchmarks/target/open-loop.stamp; then
  ss_find_maven
  mvn -B -q -ntp -pl benchmarks -am -DskipTests -Dspotless.check.skip=true package >&2
  touch benchmarks/target/open-loop.stamp
fi

out="${1:-$SS_ROOT/target/bench/open-loop}"
rm -rf "$out" && mkdir -p "$out"
rates="${RATES:-1000,2000,3000,4000,5000,6000}"
seconds="${SECONDS_PER_RATE:-30}"
warmup="${WARMUP_SECONDS:-60}"
shard_rate="${SHARD_RATE:-500}"
shard_seconds="${SHARD_SECONDS:-10}"
cp="$SS_ROOT/benchmarks/target/classes:$SS_ROOT/benchmarks/target/lib/*"
java="$JAVA_HOME/bin/java"

ulimit -n "$(ulimit -Hn)"
[ "$(ulimit -n)" -ge 16384 ] ||
  ss_die "open files limit is $(ulimit -n); 15,000 streams need more: raise the hard limit (limits.conf / systemd LimitNOFILE)"

# The generator JVM: one CPU; serial GC with a fixed 7 GiB heap, 6 GiB of it young, touched
# up front, and a collection before each rate (OpenLoopBench), so that a 30 s rate up to about
# 6,000/s (~18 KB of garbage a request) fits in one young generation: a young collection copies
# every open stream's state and at 13,000 streams pauses ~150 ms; see measurements/open-loop.md.
gen_opts=(-XX:ActiveProcessorCount=1 -XX:+UseSerialGC -Xms7g -Xmx7g -Xmn6g -XX:+AlwaysPreTouch)

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$SS_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "host: $(uname -srm), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "java: $("$java" -version 2>&1 | head -n 1)"
  echo "open files limit: $(ulimit -n)"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "isolate: ${ISOLATE:-0}"
} | tee "$out/machine.txt"

paces="${PACES:-burst paced}"
server_pid=""
isolate_pid=""
masks="$out/affinity-before.txt"
if [ "${ISOLATE:-0}" = 1 ]; then
  [ "$(id -u)" = 0 ] || ss_die "ISOLATE=1 moves other processes off the generator's core and needs root; run without it"
  : >"$masks"
  for p in /proc/[0-9]*; do
    p="${p#/proc/}"
    m="$(taskset -p "$p" 2>/dev/null | sed -n 's/.*: //p')" && [ -n "$m" ] && echo "$p $m" >>"$masks"
  done
fi
isolate_start() { # $1: the generator's pid, left on CPU 0; everything else to CPU 1
  [ "${ISOLATE:-0}" = 1 ] || return 0
  local keep="$1"
  (
    while true; do
      for p in /proc/[0-9]*; do
        p="${p#/proc/}"
        [ "$p" = "$keep" ] || taskset -a -p 2 "$p" >/dev/null 2>&1 || true
      done
      sleep 0.5
    done
  ) &
  isolate_pid=$!
}
isolate_stop() { # every process back to the mask it had before the run (all CPUs if started since)
  [ -n "$isolate_pid" ] || return 0
  kill "$isolate_pid" 2>/dev/null || true
  wait "$isolate_pid" 2>/dev/null || true
  isolate_pid=""
  local all
  all="$(printf '%x' $(((1 << $(nproc)) - 1)))"
  for p in /proc/[0-9]*; do
    p="${p#/proc/}"
    m="$(sed -n "s/^$p //p" "$masks")"
    taskset -a -p "${m:-$all}" "$p" >/dev/null 2>&1 || true
  done
}
cleanup() {
  isolate_stop
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}
trap cleanup EXIT
start_server() { # $1: the pace, burst or paced
  local shape=(--pace "$1" --chunks 18)
  [ "$1" = paced ] && shape=(--pace paced --chunks 10 --first-ms 60)
  cleanup
  taskset -c 1 "$java" -XX:ActiveProcessorCount=1 -Xmx1g -cp "$cp" \
    dev.speechscale.benchmarks.StreamingAudioServer "${shape[@]}" </dev/null >"$out/server-$1.txt" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    grep -q '^listening ' "$out/server-$1.txt" && break
    sleep 0.1
  done
  port="$(sed -n 's/^listening //p' "$out/server-$1.txt")"
  [ -n "$port" ] || ss_die "the streaming server did not start: $(cat "$out/server-$1.txt")"
  target="http://127.0.0.1:$port"
}

for pace in $paces; do
  echo "== 1. open-loop ramp, $pace responses ($rates /s, ${seconds} s each) ==" >&2
  start_server "$pace"
  taskset -c 0 "$java" "${gen_opts[@]}" -cp "$cp" dev.speechscale.benchmarks.OpenLoopBench ramp \
    --target "$target" --rates "$rates" --seconds "$seconds" --warmup-seconds "$warmup" \
    --out "$out/ramp-$pace" >"$out/ramp-$pace.md" &
  gen_pid=$!
  isolate_start "$gen_pid"
  wait "$gen_pid"
  isolate_stop
  cat "$out/ramp-$pace.md"
done

start_server burst
echo "== 2. one process vs four shard processes, seed 42, ${shard_rate}/s for ${shard_seconds} s ==" >&2
shard_opts=(-XX:ActiveProcessorCount=1 -XX:+UseSerialGC -Xmx1g)
taskset -c 0 "$java" "${shard_opts[@]}" -cp "$cp" dev.speechscale.benchmarks.OpenLoopBench shard \
  --target "$target" --rate "$shard_rate" --seconds "$shard_seconds" --seed 42 --shard 0/1 --warmup-seconds 3 \
  --out "$out/shards/single" | tee "$out/shards.txt"
pids=()
for k in 0 1 2 3; do
  taskset -c 0 "$java" "${shard_opts[@]}" -cp "$cp" dev.speechscale.benchmarks.OpenLoopBench shard \
    --target "$target" --rate "$shard_rate" --seconds "$shard_seconds" --seed 42 --shard "$k/4" --warmup-seconds 3 \
    --out "$out/shards/shard-$k" >"$out/shards/shard-$k.txt" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
cat "$out"/shards/shard-*.txt | tee -a "$out/shards.txt"
"$java" -cp "$cp" dev.speechscale.benchmarks.OpenLoopBench merge --single "$out/shards/single" \
  --shards "$out/shards/shard-0,$out/shards/shard-1,$out/shards/shard-2,$out/shards/shard-3" \
  --out "$out/shards/merged" | tee -a "$out/shards.txt"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
