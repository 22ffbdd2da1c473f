#!/bin/bash
# Runs o-v's three replays re-predicted offline with the build on the classpath (ttotal's cold start,
# the hosts as recorded; o-s's initial instance from its warm-up as initial-served-2026-12-04 did,
# t-v's as recorded), optionally with a slower tail after the cold start's last step:
#   TAIL=<factor>:<until request> measurements/simulator-calibration/live-vs-live-2026-12-05/tail/repredict.sh <label>
# writes tail/<label>.txt; summary.py <label>.txt ... counts the replays within and the mean errors.
# TAIL_NEW_ONLY=1 gives the tail to the scale-out's new instance only; it needs new-only.patch
# applied to a scratch clone (git apply), built, and this script run from that clone.
# Run from the repository's root after bin/tts-bench has built it.
S=measurements/simulator-calibration/rung-host-2026-12-02/repredict-all.sh
{ INITIAL_SERVED=warmup2x COLD=ttotal HS=recorded bash $S quiet-2026-12-04o quiet-2026-12-04p quiet-2026-12-04q quiet-2026-12-04r quiet-2026-12-04s
  COLD=ttotal HS=recorded bash $S quiet-2026-12-04t quiet-2026-12-04u quiet-2026-12-04v; } > measurements/simulator-calibration/live-vs-live-2026-12-05/tail/$1.txt 2>&1
