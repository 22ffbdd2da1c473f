#!/bin/bash
# quiet-machine: a fresh clone's quickstart, then a replay whose post-surge minutes carry ~1000
# requests each (two instances at 0.45 of one instance's X each), so the p95 per minute resolves ±15 %;
# run twice (a, b), each on a fresh deployment; the replays start from the live history and the warm-up speed (defaults).
# long3: the same with 120 s warm-ups (qmax in the quickstart, its replay, and both long replays): is the instance still warming in the quiet minutes?
set -u
L=runs/long3.log
D=.
R=measurements/simulator-calibration/quiet-2026-12-02e
rm -rf $D $R runs/state-lt; mkdir -p $R; git clone -q . $D; cd $D
echo "clone $(git log --oneline -1) $(date -u +%H:%M:%S)" >> $L
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
bin/tts-bench --help > /dev/null 2>> $L
echo "built $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $L
echo "quickstart start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $L
bin/tts-bench quickstart --warmup 120s --output-dir $R --state-dir runs/state-lt > $R/quickstart.out 2> $R/quickstart.err; rc=$?
echo "quickstart end $(date -u +%H:%M:%S) rc=$rc load $(cut -d' ' -f1-3 /proc/loadavg)" >> $L
X=$(python3 -c "import json;print(json.load(open('$R/plan-quickstart.json'))['throughput_at_c_scale_max_rps'])")
python3 - "$X" > $R/trace-long.csv <<'PY'
import sys
x=float(sys.argv[1])
print("time_s,rps")
print(f"# long tail: {0.3*x:.2f} req/s quiet, {1.4*x:.2f} surge, {0.9*x:.2f} after (0.3x, 1.4x, 0.9x one instance's {x:.2f} req/s)")
print(f"0,{0.3*x:.2f}"); print(f"20,{1.4*x:.2f}"); print(f"60,{0.9*x:.2f}"); print("240,0")
PY
QMAX=$(ls $R/qmax-quickstart-*.json | head -1); TT=$(ls $R/ttotal-quickstart-*.json | head -1)
echo "replay a start $(date -u +%H:%M:%S) X=$X load $(cut -d' ' -f1-3 /proc/loadavg)" >> $L
bin/speech-infra deploy --model quickstart --config $R/endpoints-planned.yaml --plan $R/plan-quickstart.json --state-dir runs/state-lt > $R/deploy.out 2>&1 && \
bin/tts-bench replay --model quickstart --config $R/endpoints-planned.yaml --state-dir runs/state-lt --plan $R/plan-quickstart.json --qmax $QMAX --ttotal $TT --trace $R/trace-long.csv --surge-at 20s --warmup 120s --events $R/replay-long-a-events.jsonl --output $R/replay-long-a.json > $R/replay-long-a.out 2> $R/replay-long-a.err; rc=$?
echo "replay a end $(date -u +%H:%M:%S) rc=$rc load $(cut -d' ' -f1-3 /proc/loadavg)" >> $L
bin/speech-infra destroy --model quickstart --config $R/endpoints-planned.yaml --state-dir runs/state-lt >> $L 2>&1
echo "replay b start $(date -u +%H:%M:%S) X=$X load $(cut -d' ' -f1-3 /proc/loadavg)" >> $L
bin/speech-infra deploy --model quickstart --config $R/endpoints-planned.yaml --plan $R/plan-quickstart.json --state-dir runs/state-lt > $R/deploy.out 2>&1 && \
bin/tts-bench replay --model quickstart --config $R/endpoints-planned.yaml --state-dir runs/state-lt --plan $R/plan-quickstart.json --qmax $QMAX --ttotal $TT --trace $R/trace-long.csv --surge-at 20s --warmup 120s --events $R/replay-long-b-events.jsonl --output $R/replay-long-b.json > $R/replay-long-b.out 2> $R/replay-long-b.err; rc=$?
echo "replay b end $(date -u +%H:%M:%S) rc=$rc load $(cut -d' ' -f1-3 /proc/loadavg)" >> $L
bin/speech-infra destroy --model quickstart --config $R/endpoints-planned.yaml --state-dir runs/state-lt >> $L 2>&1
echo DONE >> $L
echo ALLDONE >> $L
