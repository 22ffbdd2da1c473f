#!/bin/bash
# Where a fresh instance's cold start goes: its JIT compiler threads' CPU against the instance's
# CPU quota (500 mcpu), in open loop (a flat 0.45 X for 240 s after the replays' 20 s closed-loop
# warm-up) and in closed loop (a 150 s warm-up at N=4, then the same flat trace for 60 s), each on a
# fresh deployment of run u's plan held at one instance; sample.py reads the instance's threads'
# CPU every second (cumulative since the JVM started: the deploy's own start-up included).
# Run from the repository's root after bin/tts-bench has built it; OUT (default runs/jit-cpu) takes
# the working files, R (default this folder) the results.
set -u
ROOT=$(git rev-parse --show-toplevel); cd "$ROOT"
U=measurements/simulator-calibration/quiet-2026-12-04u
W=measurements/simulator-calibration/warmup-clock-2026-12-04
R=${R:-measurements/simulator-calibration/jit-cpu-2026-12-04}
OUT=${OUT:-runs/jit-cpu}; mkdir -p $OUT $R
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
QMAX=$(ls $U/qmax-quickstart-*.json); TT=$(ls $U/ttotal-quickstart-*.json)
cp $U/endpoints-planned.yaml $OUT/endpoints.yaml
python3 - > $R/trace-60.csv <<'PY'
import csv
rows = [l for l in open('measurements/simulator-calibration/warmup-clock-2026-12-04/trace.csv')]
print(rows[0].strip()); print(rows[1].strip() + ', 60 s'); print(rows[2].strip()); print("60,0")
PY
for arm in open:20:trace.csv:240 closed:150:trace-60.csv:60; do
  IFS=: read name w tr dur <<< "$arm"
  tf=$W/$tr; [ -f $tf ] || tf=$R/$tr
  echo "$name start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $R/runs.txt
  bin/speech-infra deploy --model quickstart --config $OUT/endpoints.yaml --plan $U/plan-quickstart.json --state-dir $OUT/state > $OUT/deploy-$name.out 2>&1
  pid=$(pgrep -n -f 'AOTCache=.*speech-server')
  echo "$name instance pid $pid started $(ps -o lstart= -p $pid)" >> $R/runs.txt
  python3 $R/sample.py $pid $R/cpu-$name.txt 600 &
  sp=$!
  bin/tts-bench replay --model quickstart --config $OUT/endpoints.yaml --state-dir $OUT/state --plan $U/plan-quickstart.json --qmax $QMAX --ttotal $TT --trace $tf --surge-at ${dur}s --warmup ${w}s --events $OUT/replay-$name-events.jsonl --output $R/replay-$name.json > $R/replay-$name.out 2> $OUT/replay-$name.err
  echo "$name end $(date -u +%H:%M:%S) rc=$? load $(cut -d' ' -f1-3 /proc/loadavg)" >> $R/runs.txt
  bin/speech-infra destroy --model quickstart --config $OUT/endpoints.yaml --state-dir $OUT/state >> $OUT/destroy.out 2>&1
  kill $sp 2>/dev/null; wait $sp 2>/dev/null
  gzip -9c $OUT/replay-$name-events.jsonl > $R/replay-$name-events.jsonl.gz
done
echo ALLDONE >> $R/runs.txt
