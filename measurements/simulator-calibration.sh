#!/bin/bash
# One calibration run of the simulator against the live local fleet, as runs o-w of
# measurements/simulator-calibration.md were made (recorded there as quiet-2026-12-02f/long4.sh).
# Needs the machine to itself. Run from the repository's root:
#   measurements/simulator-calibration.sh            # output in runs/calibration/
# quiet machine: a fresh clone's quickstart (qmax now records its host's speed), then two long
# replays (0.3x, 1.4x, 0.9x of the plan's X for 20/40/180 s), each on a fresh deployment, with the
# defaults: live alarm history, ladder speed, and the hosts' speed probed and applied (--host-speed live)
# L (log), D (clone) and R (output) may be given in the environment. The recorded run wrote its clone and output outside the repository and its output
# was copied here, with the paths inside the files made repo-relative.
set -u
ROOT=$(git rev-parse --show-toplevel)
L=${L:-$ROOT/runs/long4.log}
D=${D:-$ROOT/runs/cal}
R=${R:-$ROOT/runs/calibration}
rm -rf $D $R runs/state-lt; mkdir -p $R; git clone -q "$ROOT" $D; cd $D
echo "clone $(git log --oneline -1 | cut -c1-60) $(date -u +%H:%M:%S)" >> $L
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
bin/tts-bench --help > /dev/null 2>> $L
echo "built $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $L
bin/tts-bench quickstart --output-dir $R --state-dir runs/state-lt > $R/quickstart.out 2> $R/quickstart.err; rc=$?
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
for run in a b; do
echo "replay $run start $(date -u +%H:%M:%S) X=$X load $(cut -d' ' -f1-3 /proc/loadavg)" >> $L
bin/speech-infra deploy --model quickstart --config $R/endpoints-planned.yaml --plan $R/plan-quickstart.json --state-dir runs/state-lt > $R/deploy-$run.out 2>&1 && \
bin/tts-bench replay --model quickstart --config $R/endpoints-planned.yaml --state-dir runs/state-lt --plan $R/plan-quickstart.json --qmax $QMAX --ttotal $TT --trace $R/trace-long.csv --surge-at 20s --warmup 20s --events $R/replay-long-$run-events.jsonl --output $R/replay-long-$run.json > $R/replay-long-$run.out 2> $R/replay-long-$run.err; rc=$?
echo "replay $run end $(date -u +%H:%M:%S) rc=$rc load $(cut -d' ' -f1-3 /proc/loadavg)" >> $L
bin/speech-infra destroy --model quickstart --config $R/endpoints-planned.yaml --state-dir runs/state-lt >> $L 2>&1
done
echo ALLDONE >> $L
