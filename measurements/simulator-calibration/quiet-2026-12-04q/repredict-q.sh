#!/bin/bash
# Run q's three replays re-predicted offline four ways (the table "The minute after the surge, four
# ways" in ../../simulator-calibration.md, section "Run q"): the cold start from ttotal with the hosts
# divided out (as recorded), undivided (a copy of the run whose ttotal factors are multiplied back by
# their host_ratio: what the build before ac5e03e would have taken), qmax's warm-up ramp, none.
# Run from the repository's root after bin/tts-bench has built it (or with CP= another build's jar).
set -u
ROOT=$(git rev-parse --show-toplevel); cd "$ROOT"
M=measurements/simulator-calibration
RAW=$M/quiet-2026-12-04q-raw
trap 'rm -rf $RAW' EXIT
rm -rf $RAW; cp -r $M/quiet-2026-12-04q $RAW
python3 - $RAW/ttotal-quickstart-force-desired-local500mcpu-2a6e114d.json <<'PY'
import json,sys
t=json.load(open(sys.argv[1]))
for w in t['new_instance']['windows']:
    h=w.pop('host_ratio',None)
    if h and w.get('factor') is not None: w['factor']*=h
json.dump(t,open(sys.argv[1],'w'),indent=2)
PY
R=$M/rung-host-2026-12-02/repredict-all.sh
echo "== ttotal, hosts divided out (this build)"; COLD=ttotal HS=recorded bash $R quiet-2026-12-04q
echo "== ttotal, hosts not divided (before ac5e03e)"; COLD=ttotal HS=recorded bash $R quiet-2026-12-04q-raw
echo "== qmax's warm-up ramp"; COLD=1 HS=recorded bash $R quiet-2026-12-04q
echo "== none"; COLD=0 HS=recorded bash $R quiet-2026-12-04q
echo "== quickstarts since k, this build's model, an instance twice as sensitive to its core (HOST_K=2)"
for d in quiet-2026-12-03k quiet-2026-12-03l quiet-2026-12-04m quiet-2026-12-04n quiet-2026-12-04o quiet-2026-12-04p quiet-2026-12-04q; do
  HOST_K=2 COLD=ttotal HS=recorded bash $R $d | grep quickstart
done
