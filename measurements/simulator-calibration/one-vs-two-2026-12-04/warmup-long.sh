#!/bin/bash
# The one-instance replays of one-vs-two.sh again with a 180 s warm-up instead of 20 s: whether the
# prediction of a quiet instance comes within once the instance is as warm as the ladder measured it.
# Run from the repository's root after one-vs-two.sh (it reuses its working files under OUT).
set -u
ROOT=$(git rev-parse --show-toplevel); cd "$ROOT"
N=measurements/simulator-calibration/quiet-2026-12-04n
R=${R:-measurements/simulator-calibration/one-vs-two-2026-12-04}
OUT=${OUT:-runs/one-vs-two}
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
QMAX=$(ls $N/qmax-quickstart-*.json); TT=$(ls $N/ttotal-quickstart-*.json)
for round in 1 2; do
  name=1-w180-$round
  echo "$name start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $R/runs.txt
  bin/speech-infra deploy --model quickstart --config $OUT/endpoints-1.yaml --plan $OUT/plan-1.json --state-dir $OUT/state > $OUT/deploy-$name.out 2>&1
  bin/tts-bench replay --model quickstart --config $OUT/endpoints-1.yaml --state-dir $OUT/state --plan $OUT/plan-1.json --qmax $QMAX --ttotal $TT --trace $R/trace-1.csv --surge-at 150s --warmup 180s --events $OUT/replay-$name-events.jsonl --output $R/replay-$name.json > $R/replay-$name.out 2> $OUT/replay-$name.err
  echo "$name end $(date -u +%H:%M:%S) rc=$? load $(cut -d' ' -f1-3 /proc/loadavg)" >> $R/runs.txt
  bin/speech-infra destroy --model quickstart --config $OUT/endpoints-1.yaml --state-dir $OUT/state >> $OUT/destroy.out 2>&1
  gzip -9c $OUT/replay-$name-events.jsonl > $R/replay-$name-events.jsonl.gz
done
echo ALLDONE-w180 >> $R/runs.txt
