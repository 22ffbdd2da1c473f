#!/bin/bash
cd "$(git rev-parse --show-toplevel)"
R=measurements/simulator-calibration/host-speed-2026-12-02/$1
mkdir -p $R
bin/speech-infra destroy --model quickstart --config examples/quickstart/endpoints.yaml --state-dir runs/st > $R/destroy.out 2>&1
date -u +%s.%N > $R/deploy-start
bin/speech-infra deploy --model quickstart --config examples/quickstart/endpoints.yaml --state-dir runs/st > $R/deploy.out 2>&1
date -u +%s.%N > $R/deploy-end
measurements/simulator-calibration/host-speed-2026-12-02/sample.sh $R/cpu.txt 400 &
S=$!
bin/tts-bench qmax --model quickstart --config examples/quickstart/endpoints.yaml --state-dir runs/st --rungs 4 --hold 360s --window 20s --stability-windows 1 --warmup 1s --drift-check off --no-refine --events $R/events.jsonl --output $R/qmax.json > $R/qmax.out 2> $R/qmax.err
echo "qmax rc=$?" >> $R/qmax.err
kill $S
bin/speech-infra destroy --model quickstart --config examples/quickstart/endpoints.yaml --state-dir runs/st >> $R/destroy.out 2>&1
echo DONE > $R/done
