#!/bin/bash
# Runs o-s's three replays re-predicted offline two ways with the build on the classpath (COLD=ttotal,
# the hosts as recorded): the replay's initial instance warm (as their recorded predictions took
# it) and as far along ttotal's cold start as its warm-up took it (INITIAL_SERVED=warmup2x: twice
# the warm-up's second half, live.warmup.requests, which these artifacts recorded; builds from
# c62d75f record the whole warm-up's count as live.warmup.initial_served and use it).
# Run from the repository's root after bin/tts-bench has built it.
ROOT=$(git rev-parse --show-toplevel); cd "$ROOT"
R=measurements/simulator-calibration/rung-host-2026-12-02/repredict-all.sh
RUNS="${*:-quiet-2026-12-04o quiet-2026-12-04p quiet-2026-12-04q quiet-2026-12-04r quiet-2026-12-04s}"
for I in warm warmup2x; do
  echo "== INITIAL_SERVED=$I"
  INITIAL_SERVED=$I COLD=ttotal HS=recorded bash $R $RUNS
done
