#!/bin/bash
# simulate's day at full scale (the README's example, plan policy only) on two builds, alternating,
# under /usr/bin/time. Usage, from the repository's root: measurements/simulator-ab.sh OLD_CHECKOUT
# (a clone at the older commit; both are built by bin/tts-bench on first use). Output in runs/ab/.
set -eu
ROOT=$(git rev-parse --show-toplevel)
OLD=$(cd "$1" && pwd)
OUT=$ROOT/runs/ab
mkdir -p "$OUT"
E=$ROOT/examples/kokoro-82m
echo "load before $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/ab.log"
for i in 1 2; do
  for b in old new; do
    dir=$ROOT; [ $b = old ] && dir=$OLD
    (cd "$OUT" && /usr/bin/time -f "$b run $i: %e s wall, %U s user, %M KB" "$dir/bin/tts-bench" simulate \
      --qmax $E/qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json \
      --ttotal $E/ttotal-kokoro-82m-force-desired-g5xlarge-8b1b96bc.json \
      --plan $E/plan-kokoro-82m.json --pattern diurnal --duration 24h --policies plan \
      --price-per-hour 1.408 --output "$OUT/sim-$b-$i.json" > "$OUT/sim-$b-$i.out" 2> "$OUT/sim-$b-$i.err") || true
    tail -1 "$OUT/sim-$b-$i.err" >> "$OUT/ab.log"
  done
done
echo "load after $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/ab.log"
