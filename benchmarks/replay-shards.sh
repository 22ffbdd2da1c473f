#!/usr/bin/env bash
# replay-shards: the same trace replayed by one process and by N shard processes
# (tts-bench replay --shard K/N --start-at T), against an endpoint a quickstart left running
# (bin/tts-bench quickstart --keep); prints both arrival counts and whether the merged arrivals
# (seq, phase, intended offset) equal the single process's. Issue 36, measurements/open-loop.md.
#
#   RUN=speechscale-runs/quickstart-<time> [N=4] [RATE=30] [SECS=20] benchmarks/replay-shards.sh
#
# Each replay is preceded by a redeploy behind the searched plan, so each starts from the floor.
# Output: target/bench/replay-shards/ (one directory per run).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUN="${RUN:?set RUN to a quickstart run directory left by bin/tts-bench quickstart --keep}"
N="${N:-4}"
RATE="${RATE:-30}"
SECS="${SECS:-20}"
OUT="$ROOT/target/bench/replay-shards/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
cfg="$RUN/endpoints-planned.yaml"
plan=$(ls "$RUN"/plan-search-*.json)
qmax=$(ls "$RUN"/qmax-*.json)
ttotal=$(ls "$RUN"/ttotal-*.json)
model=$(basename "$plan" .json); model=${model#plan-search-}
printf 'time_s,rps\n0,%s\n%s,0\n' "$RATE" "$SECS" > "$OUT/trace.csv"
args=(replay --model "$model" --platform local --config "$cfg" --plan "$plan" --qmax "$qmax"
  --ttotal "$ttotal" --trace "$OUT/trace.csv" --surge-at 0s --no-align --warmup 5s)
redeploy() { "$ROOT/bin/speech-infra" deploy --model "$model" --config "$cfg" --plan "$plan" >/dev/null; }

redeploy
"$ROOT/bin/tts-bench" "${args[@]}" --events "$OUT/single/events.jsonl" \
  --output "$OUT/single/replay.json" > "$OUT/single.out" 2> "$OUT/single.err" || true

redeploy
start=$(date -u -d "+40 seconds" +%Y-%m-%dT%H:%M:%SZ)
pids=()
for ((k = 1; k < N; k++)); do
  "$ROOT/bin/tts-bench" "${args[@]}" --events "$OUT/shards/events.jsonl" --start-at "$start" \
    --shard "$k/$N" > "$OUT/shard-$k.out" 2>&1 &
  pids+=($!)
done
"$ROOT/bin/tts-bench" "${args[@]}" --events "$OUT/shards/events.jsonl" --start-at "$start" \
  --shard "0/$N" --output "$OUT/shards/replay.json" > "$OUT/shard-0.out" 2> "$OUT/shard-0.err" || true
for p in "${pids[@]}"; do wait "$p"; done

python3 - "$OUT" "$N" <<'PY'
import json, sys
out, n = sys.argv[1], int(sys.argv[2])
def arrivals(path):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    return sorted((r["seq"], r["step_index"], r["schedule_offset_ns"]) for r in rows)
single = arrivals(f"{out}/single/events.jsonl")
merged = arrivals(f"{out}/shards/events.jsonl")
per = [len(arrivals(f"{out}/shards/events.{k}-of-{n}.jsonl")) for k in range(n)]
a = json.load(open(f"{out}/shards/replay.json"))
print(f"single process: {len(single)} arrivals; {n} shards: {' + '.join(map(str, per))} = "
      f"{sum(per)}; merged {len(merged)}; equal (seq, phase, offset): {merged == single}; "
      f"artifact measured arrivals {a['measured']['arrivals']}, shards {a['provenance']['parameters'].get('shards')}")
PY
echo "output: $OUT"
