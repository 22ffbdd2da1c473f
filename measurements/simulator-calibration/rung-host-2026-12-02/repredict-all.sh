#!/bin/bash
# Re-predicts each run's three replays (quickstart, long a, long b) offline with RePredict (COLD=1, as
# recorded) and prints shed and the p95 minutes against the measured ones. The reference is each
# run's usable rungs' host speed at C_scale_max (rung_reference.py); HS=recorded takes the one the
# replay recorded (the ladder's median), HS=<ms> another; HOST_K=k an instance k times as sensitive
# to its host as the probe. Run from the repository's root after bin/tts-bench has built it:
#   measurements/simulator-calibration/rung-host-2026-12-02/repredict-all.sh quiet-2026-12-02f ...
ROOT=$(git rev-parse --show-toplevel); cd "$ROOT"
HERE=measurements/simulator-calibration/rung-host-2026-12-02
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
CP="${CP:-cli/target/launch/speechscale-cli.jar:cli/target/launch/lib/*}"
for run in "$@"; do
  d=measurements/simulator-calibration/$run
  ref=$(python3 $HERE/rung_reference.py $run | sed 's/.*ref \([0-9.]*\).*/\1/')
  for rp in quickstart:trace-calibration.csv long-a:trace-long.csv long-b:trace-long.csv; do
    name=${rp%%:*}; tr=${rp#*:}
    hs=${HS:-$ref}; [ "$hs" = recorded ] && hs=recorded; [ -n "$QMAX_DIR" ] && export QMAX_FILE=$QMAX_DIR/qmax-${run: -1}.json; out=$(COLD=${COLD:-1} HOST_SPEED=$hs REPLAY=replay-$name.json TRACE=$tr java --enable-native-access=ALL-UNNAMED -cp "$CP" measurements/qmax-reproducibility/RePredict.java $d 2>&1)
    python3 - "$d/replay-$name.json" "$out" "$run $name ref=$hs k=${HOST_K:-1}" <<'PY'
import json,sys,re
r=json.load(open(sys.argv[1])); out=sys.argv[2]
m=re.search(r'this build: shed (\d+) / (\d+)',out)
if not m: print(out); sys.exit()
shed=100*int(m.group(1))/int(m.group(2))
p95={int(a):float(b) for a,b in re.findall(r'minute (\d+): p95 ([0-9.]+) ms',out)}
meas=r['measured']; cmp=r['comparison']
ms=[c for c in cmp if c['figure']=='shed_fraction'][0]['measured']
line='%-40s shed %.2f vs %.2f (%+.1f pp)'%(sys.argv[3],shed,ms,shed-ms)
for c in cmp:
    if c['figure']=='p95_ttfab_ms' and c['minute']>0:
        pv=p95.get(c['minute'],float('nan')); line+='  m%d %+.1f%%%s'%(c['minute'],100*(pv/c['measured']-1),'' if c['result']!='unresolved' else '(u)')
print(line)
PY
  done
done
