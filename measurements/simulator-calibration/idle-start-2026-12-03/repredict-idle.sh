#!/bin/bash
# Re-predicts runs f-l's three replays offline twice: without an idle start (IDLE=off, as before)
# and with the idle start measured from each run's own quickstart replay (its replay-events.jsonl.gz,
# open loop, as qmax's idle-start rung measures it: a request is idle when the server's queue wait
# is under 1 ms). The long replays are out of sample; the quickstart replay is in sample.
# Run from the repository's root after bin/tts-bench has built it.
ROOT=$(git rev-parse --show-toplevel); cd "$ROOT"
S=measurements/simulator-calibration
for run in quiet-2026-12-02f quiet-2026-12-02g quiet-2026-12-02h quiet-2026-12-02i quiet-2026-12-02j quiet-2026-12-03k quiet-2026-12-03l; do
  echo "== $run off"; IDLE=off $S/rung-host-2026-12-02/repredict-all.sh $run
  echo "== $run idle"; IDLE=$S/$run/replay-events.jsonl.gz $S/rung-host-2026-12-02/repredict-all.sh $run
done
