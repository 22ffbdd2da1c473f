#!/bin/bash
# a long replay (run d's artifacts and trace) with a CPU-speed probe on each core
cd "$(git rev-parse --show-toplevel)"
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
R=measurements/simulator-calibration/host-speed-2026-12-02/$1; D=measurements/simulator-calibration/quiet-2026-12-02d; C=measurements/simulator-calibration/host-speed-2026-12-02/endpoints-planned-d.yaml
mkdir -p $R
bin/speech-infra destroy --model quickstart --config $C --state-dir runs/st > $R/destroy.out 2>&1
python3 measurements/simulator-calibration/host-speed-2026-12-02/probe.py 0 480 $R/probe0.txt & P0=$!
python3 measurements/simulator-calibration/host-speed-2026-12-02/probe.py 1 480 $R/probe1.txt & P1=$!
echo "start $(date -u +%s.%N) load $(cat /proc/loadavg)" > $R/runs.txt
bin/speech-infra deploy --model quickstart --config $C --plan $D/plan-quickstart.json --state-dir runs/st > $R/deploy.out 2>&1
date -u +%s.%N > $R/deploy-end
bin/tts-bench replay --model quickstart --config $C --state-dir runs/st --plan $D/plan-quickstart.json --qmax $D/qmax-quickstart-http-stream-local500mcpu-c8b8ff91.json --ttotal $D/ttotal-quickstart-force-desired-local500mcpu-c8b8ff91.json --trace $D/trace-long.csv --surge-at 20s --warmup 20s --events $R/events.jsonl --output $R/replay.json > $R/replay.out 2> $R/replay.err
echo "replay rc=$? end $(date -u +%s.%N) load $(cat /proc/loadavg)" >> $R/runs.txt
kill $P0 $P1
bin/speech-infra destroy --model quickstart --config $C --state-dir runs/st >> $R/destroy.out 2>&1
echo DONE > $R/done
