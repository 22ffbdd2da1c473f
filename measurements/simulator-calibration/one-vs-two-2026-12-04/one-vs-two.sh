#!/bin/bash
# One instance against two at the same rate per instance: run n's plan and artifacts, the endpoint
# at one instance (min 1, max 2) with a flat 0.45 X for 150 s, then at two (min 2, max 3) with
# 0.9 X (neither rate reaches the plan's target, so nothing scales; replay needs scaling attached), twice each alternating; the replay predicts each from run n's ladder. Whether a
# second instance on this 2-core machine slows the first beyond what the host probe reads.
# Run from the repository's root after bin/tts-bench has built it; OUT (default runs/one-vs-two)
# takes the working files, R (default this folder) the results.
set -u
ROOT=$(git rev-parse --show-toplevel); cd "$ROOT"
N=measurements/simulator-calibration/quiet-2026-12-04n
R=${R:-measurements/simulator-calibration/one-vs-two-2026-12-04}
OUT=${OUT:-runs/one-vs-two}; mkdir -p $OUT $R
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
X=$(python3 -c "import json;print(json.load(open('$N/plan-quickstart.json'))['throughput_at_c_scale_max_rps'])")
QMAX=$(ls $N/qmax-quickstart-*.json); TT=$(ls $N/ttotal-quickstart-*.json)
for k in 1 2; do
  sed -e "s/min_instances: 1 /min_instances: $k /" -e "s/max_instances: 2 /max_instances: $((k + 1)) /" $N/endpoints-planned.yaml > $OUT/endpoints-$k.yaml
  python3 - "$X" "$k" > $R/trace-$k.csv <<'PY'
import sys
x, k = float(sys.argv[1]), int(sys.argv[2])
print("time_s,rps"); print(f"# flat {0.45*k:.2f} x {x:.2f} req/s: 0.45 X per instance on {k}")
print(f"0,{0.45*k*x:.2f}"); print("150,0")
PY
done
# the plan with min 2 and max 3, in both places and its config block, so that deploy attaches its
# rules to the two-instance endpoint (a measurement copy, not a plan: nothing else reads it)
python3 - $N/plan-quickstart.json > $OUT/plan-2.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
def floor(d):
    if isinstance(d, dict):
        if 'min_instances' in d: d['min_instances'] = 2
        if 'max_instances' in d: d['max_instances'] = 3
        for v in d.values(): floor(v)
    elif isinstance(d, list):
        for v in d: floor(v)
floor(p)
p['config_block'] = p['config_block'].replace('min_instances: 1 ', 'min_instances: 2 ').replace('max_instances: 2 ', 'max_instances: 3 ')
print(json.dumps(p, indent=2))
PY
cp $N/plan-quickstart.json $OUT/plan-1.json
for round in 1 2; do
  for k in 1 2; do
    name=$k-$round
    echo "$name start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $R/runs.txt
    bin/speech-infra deploy --model quickstart --config $OUT/endpoints-$k.yaml --plan $OUT/plan-$k.json --state-dir $OUT/state > $OUT/deploy-$name.out 2>&1 || { echo "deploy $name failed" >> $R/runs.txt; cat $OUT/deploy-$name.out >> $R/runs.txt; }
    bin/tts-bench replay --model quickstart --config $OUT/endpoints-$k.yaml --state-dir $OUT/state --plan $OUT/plan-$k.json --qmax $QMAX --ttotal $TT --trace $R/trace-$k.csv --surge-at 150s --warmup 20s --events $OUT/replay-$name-events.jsonl --output $R/replay-$name.json > $R/replay-$name.out 2> $OUT/replay-$name.err
    echo "$name end $(date -u +%H:%M:%S) rc=$? load $(cut -d' ' -f1-3 /proc/loadavg)" >> $R/runs.txt
    bin/speech-infra destroy --model quickstart --config $OUT/endpoints-$k.yaml --state-dir $OUT/state >> $OUT/destroy.out 2>&1
    gzip -9c $OUT/replay-$name-events.jsonl > $R/replay-$name-events.jsonl.gz
  done
done
echo ALLDONE >> $R/runs.txt
