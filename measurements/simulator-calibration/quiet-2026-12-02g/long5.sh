#!/bin/bash
# Run g: quiet-2026-12-02f's long4.sh on a later build, its log, clone and output named for run g.
# Run from the repository's root.
ROOT=$(git rev-parse --show-toplevel)
L=$ROOT/runs/long5.log D=$ROOT/runs/cal5 R=$ROOT/measurements/simulator-calibration/quiet-2026-12-02g \
  exec "$ROOT/measurements/simulator-calibration/quiet-2026-12-02f/long4.sh"
