#!/usr/bin/env bash
# One live calibration of the simulator against the local fleet, as runs 5-8 of
# measurements/simulator-calibration.md were made: a fresh speech-cal (flite, local.500mcpu,
# SLO 1000 ms), qmax 1..32, one ttotal, a plan at 1.6 x the mean of rungs 4 and 8 (so the plan is
# 1..2 instances), a redeploy behind the plan, 30 s of warm traffic at half the mean of rungs 4 and
# 8 (about as many requests as qmax's 20 s warm-up at N=4, so the fresh instance's JIT is as warm
# as the ladder's was; runs 5-7 warmed with 2 req/s), 40 s quiet, then
# `tts-bench replay --calibration` with a per-request event log. Needs the machine to itself
# (every run on a shared machine says so); the load average is logged every 15 s beside the files.
#
# usage: measurements/simulator-calibration/calrun.sh OUT_DIR [SEED]
set -euo pipefail
out=${1:?usage: calrun.sh OUT_DIR [SEED]}
seed=${2:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
cd "$out"
state=state  # relative, so the recorded command lines name no machine path
bench=$root/bin/tts-bench
infra=$root/bin/speech-infra
(while true; do echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 15; done) >loadavg.txt &
loadavg=$!
cleanup() {
  kill "$loadavg" 2>/dev/null || true
  "$infra" destroy --model cal --state-dir "$state" >/dev/null 2>&1 || true
  rm -rf "$state"
}
trap cleanup EXIT

cat >endpoints.yaml <<'YAML'
models:
  cal:
    engine: flite
    engine_settings: {segmentation: sentence}
    instance_type: local.500mcpu
    min_instances: 1
    max_instances: 2
    ttfab_slo_ms: 1000
    queue_max_depth: 0
YAML
where=(--model cal --state-dir "$state")
"$infra" deploy "${where[@]}" --config endpoints.yaml
"$bench" qmax "${where[@]}" --config endpoints.yaml --rungs 1,2,4,8,16,32 \
  --output qmax-cal.json 2>&1 | tee qmax.out
"$bench" ttotal "${where[@]}" --config endpoints.yaml --qmax qmax-cal.json \
  --output ttotal-cal-1.json 2>&1 | tee ttotal-1.out
peak=$(python3 - <<'PY'
import json
q = json.load(open("qmax-cal.json"))
x = [s["achieved_rps"] for s in q["steps"] if s["concurrency"] in (4, 8) and s.get("achieved_rps")]
print(round(1.6 * sum(x) / len(x), 2))
PY
)
echo "plan peak: $peak req/s (1.6 x the mean of rungs 4 and 8)" | tee plan.out
"$bench" plan --qmax qmax-cal.json --ttotal ttotal-cal-1.json --peak-rps "$peak" \
  --output plan-cal.json 2>&1 | tee -a plan.out
python3 - <<'PY'
import json
p = json.load(open("plan-cal.json"))
block = p["config_block"].splitlines()[2:]
with open("endpoints-planned.yaml", "w") as f:
    f.write("models:\n  cal:\n    engine: flite\n    engine_settings: {segmentation: sentence}\n")
    f.write("".join(line + "\n" for line in block))
PY
"$infra" deploy "${where[@]}" --config endpoints-planned.yaml --plan plan-cal.json
warm=$(python3 -c "print(round($peak / 1.6 / 2, 2))")
printf 'time_s,rps\n0,%s\n30,0\n' "$warm" >warm.csv
"$bench" replay "${where[@]}" --config endpoints-planned.yaml --plan plan-cal.json \
  --qmax qmax-cal.json --ttotal ttotal-cal-1.json --trace warm.csv --surge-at 10s --no-align \
  --output warm-replay.json >warm.out 2>&1 || true
sleep 40
"$bench" replay "${where[@]}" --config endpoints-planned.yaml --plan plan-cal.json \
  --qmax qmax-cal.json --ttotal ttotal-cal-1.json --calibration trace-calibration-cal.csv \
  --seed "$seed" --events replay-events.jsonl --output replay-cal.json 2>&1 | tee replay.out || true
