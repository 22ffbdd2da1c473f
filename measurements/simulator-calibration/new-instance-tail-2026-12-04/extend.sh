#!/bin/bash
# What-if, offline: runs o-r's three replays re-predicted (COLD=ttotal, the hosts as recorded) with
# the build on the classpath, first on their own inputs, then on a copy whose ttotal new instance
# stays at least xF (default 1.10, hosts divided out) from its third 15 s window on and for N more
# windows of REQ requests (default 8 of 160: two more minutes at ttotal's rate) -- the tail
# tail.py reads in the replays' own second instance (x1.02-1.20 per 30 s), which ttotal's 60 s cut
# off. In-sample: F is read off these replays, so this shows what the tail is worth, not a
# prediction. Run from the repository's root after bin/tts-bench has built it.
set -u
ROOT=$(git rev-parse --show-toplevel); cd "$ROOT"
F=${F:-1.10}; N=${N:-8}; REQ=${REQ:-160}
M=measurements/simulator-calibration
R=$M/rung-host-2026-12-02/repredict-all.sh
for run in "${@:-quiet-2026-12-04o quiet-2026-12-04p quiet-2026-12-04q quiet-2026-12-04r}"; do
  for r in $run; do
  echo "== $r, its own inputs"; COLD=ttotal HS=recorded bash $R $r
  W=$M/$r-tail; rm -rf $W; cp -r $M/$r $W
  python3 - $W/ttotal-*.json "$F" "$N" "$REQ" <<'PY'
import json, sys
p, F, N, REQ = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
t = json.load(open(p)); ws = t['new_instance']['windows']
for w in ws[2:]:
    if w.get('factor') is not None: w['factor'] = max(w['factor'], F)
for i in range(N):
    u = ws[-1]['until_s']
    ws.append(dict(ws[-1], from_s=u, until_s=u + 15, new_requests=REQ, factor=F, host_ratio=1.0))
json.dump(t, open(p, 'w'), indent=1)
PY
  echo "== $r, the new instance x$F from its third window for $N more"; COLD=ttotal HS=recorded bash $R $r-tail
  rm -rf $W
  done
done
