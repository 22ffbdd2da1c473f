#!/bin/bash
# Which clock the new instance's tail runs on: requests served or age. Run u's plan and artifacts,
# a fresh deployment held at one instance (min 1, max 2; the flat rate never reaches the plan's
# target) with a flat 0.45 X for 240 s after a closed-loop warm-up of 20 s (~230 requests, as the
# replays) or 60 s (~800, what ttotal's closed loop had served its new instance when it read it
# warm), alternating 20, 60, 20, 60. analyse.py holds each request's service time against the
# instance's requests served before it and its age.
# Run from the repository's root after bin/tts-bench has built it; OUT (default runs/warmup-clock)
# takes the working files, R (default this folder) the results.
set -u
ROOT=$(git rev-parse --show-toplevel); cd "$ROOT"
U=measurements/simulator-calibration/quiet-2026-12-04u
R=${R:-measurements/simulator-calibration/warmup-clock-2026-12-04}
OUT=${OUT:-runs/warmup-clock}; mkdir -p $OUT $R
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
X=$(python3 -c "import json;print(json.load(open('$U/plan-quickstart.json'))['throughput_at_c_scale_max_rps'])")
QMAX=$(ls $U/qmax-quickstart-*.json); TT=$(ls $U/ttotal-quickstart-*.json)
cp $U/endpoints-planned.yaml $OUT/endpoints.yaml
python3 - "$X" > $R/trace.csv <<'PY'
import sys
x = float(sys.argv[1])
print("time_s,rps"); print(f"# flat 0.45 x {x:.2f} req/s on one instance")
print(f"0,{0.45*x:.2f}"); print("240,0")
PY
for round in 1 2; do
  for w in 20 60; do
    name=w$w-$round
    echo "$name start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $R/runs.txt
    bin/speech-infra deploy --model quickstart --config $OUT/endpoints.yaml --plan $U/plan-quickstart.json --state-dir $OUT/state > $OUT/deploy-$name.out 2>&1 || { echo "deploy $name failed" >> $R/runs.txt; cat $OUT/deploy-$name.out >> $R/runs.txt; }
    bin/tts-bench replay --model quickstart --config $OUT/endpoints.yaml --state-dir $OUT/state --plan $U/plan-quickstart.json --qmax $QMAX --ttotal $TT --trace $R/trace.csv --surge-at 240s --warmup ${w}s --events $OUT/replay-$name-events.jsonl --output $R/replay-$name.json > $R/replay-$name.out 2> $OUT/replay-$name.err
    echo "$name end $(date -u +%H:%M:%S) rc=$? load $(cut -d' ' -f1-3 /proc/loadavg)" >> $R/runs.txt
    bin/speech-infra destroy --model quickstart --config $OUT/endpoints.yaml --state-dir $OUT/state >> $OUT/destroy.out 2>&1
    gzip -9c $OUT/replay-$name-events.jsonl > $R/replay-$name-events.jsonl.gz
  done
done
echo ALLDONE >> $R/runs.txt
