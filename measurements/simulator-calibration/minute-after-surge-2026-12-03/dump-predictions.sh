#!/bin/bash
# Re-predicts the long replays of the given runs (as rung-host-2026-12-02/repredict-all.sh does:
# backfilled qmax, the recorded reference, j at its ladder's median 17.69175 ms) with a copy of the
# simulator's FleetRun that also writes every served request (arrival s, TTFAB ms, instance, its
# request index on that instance) to $OUT/pred-<run>-<a|b>.txt; the copy is compiled into $OUT and
# put ahead of the launch jar, the repository is not changed. COLD=0 leaves the cold start out.
# Run from the repository's root after bin/tts-bench has built it:
#   OUT=runs/m1 measurements/simulator-calibration/minute-after-surge-2026-12-03/dump-predictions.sh f g h i j quiet-2026-12-03k
set -eu
ROOT=$(git rev-parse --show-toplevel); cd "$ROOT"
OUT=${OUT:-runs/m1}; mkdir -p $OUT/src $OUT/cls $OUT/qmax
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
CP="cli/target/launch/speechscale-cli.jar:cli/target/launch/lib/*"
python3 - simulator/src/main/java/dev/speechscale/simulator/FleetRun.java $OUT/src/FleetRun.java <<'PY'
import sys
s = open(sys.argv[1]).read()
rec = '    minuteHist.record((long) (ttfab * 1e6));\n'
assert s.count(rec) == 1, 'FleetRun changed: find where a served request is recorded'
s = s.replace(rec, rec + '    if (DUMP != null) DUMP.printf(java.util.Locale.ROOT, "%.3f %.1f %d %d%n", t, ttfab * 1000, id, k);\n')
s = s.replace('  private long minuteServed;', '  static final java.io.PrintStream DUMP = dump();\n'
  '  static java.io.PrintStream dump() { try { String f = System.getenv("DUMP");'
  ' return f == null ? null : new java.io.PrintStream(new java.io.FileOutputStream(f), true); }'
  ' catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); } }\n  private long minuteServed;', 1)
open(sys.argv[2], 'w').write(s)
PY
javac -d $OUT/cls -cp "$CP" $OUT/src/FleetRun.java
for r in "$@"; do
  run=$r; [[ $r == quiet-* ]] || run=quiet-2026-12-02$r; r=${r: -1}
  python3 measurements/simulator-calibration/rung-host-2026-12-02/backfill_host_cpu.py $run $OUT/qmax/qmax-$r.json > /dev/null
  hs=recorded; [ $r = j ] && hs=17.69175
  for x in a b; do
    DUMP=$OUT/pred-$r-$x.txt QMAX_FILE=$OUT/qmax/qmax-$r.json COLD=${COLD:-1} HOST_SPEED=$hs \
      REPLAY=replay-long-$x.json TRACE=trace-long.csv java --enable-native-access=ALL-UNNAMED \
      -cp "$OUT/cls:$CP" measurements/qmax-reproducibility/RePredict.java \
      measurements/simulator-calibration/$run > $OUT/out-$r-$x.txt 2>&1
    echo "$r $x: $(grep -m1 'minute 1' $OUT/out-$r-$x.txt)"
  done
done
