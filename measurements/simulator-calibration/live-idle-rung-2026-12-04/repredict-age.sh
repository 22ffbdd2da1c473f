#!/bin/bash
# Re-predicts runs' replays (rung-host-2026-12-02/repredict-all.sh) with a copy of the simulator's
# FleetRun whose cold start goes by the new instance's age instead of its request count:
# COLD_AGE="15:1.47,30:1.42,45:1.18" gives an instance a scale-out started x1.47 its warm service
# time and first byte for its first 15 s in service, x1.42 to 30 s, x1.18 to 45 s, then 1 (the
# instances the fleet starts with are warm). The copy is compiled into $OUT and put ahead of the
# launch jar; the repository is not changed. COLD (the request-count ramp) defaults to 0 here.
# Run from the repository's root after bin/tts-bench has built it:
#   COLD_AGE=... OUT=runs/age measurements/simulator-calibration/live-idle-rung-2026-12-04/repredict-age.sh quiet-2026-12-04n ...
set -eu
ROOT=$(git rev-parse --show-toplevel); cd "$ROOT"
OUT=${OUT:-runs/age}; mkdir -p $OUT/src $OUT/cls
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
LAUNCH="${CP:-cli/target/launch/speechscale-cli.jar:cli/target/launch/lib/*}"
python3 - simulator/src/main/java/dev/speechscale/simulator/FleetRun.java $OUT/src/FleetRun.java <<'PY'
import sys
s = open(sys.argv[1]).read()
cold = '    double cold =\n        (k < coldFactor.length ? coldFactor[k] : 1) * hostSpeeds.factor(launch[id], start);\n'
assert s.count(cold) == 1, 'FleetRun changed: find where a request gets its cold-start factor'
s = s.replace(cold, cold.replace(');\n', ') * ageFactor(id, start);\n'))
born = '        readyAt[id] = s + startupDelayS();\n'
assert s.count(born) == 1, 'FleetRun changed: find where a scale-out instance gets its ready time'
s = s.replace(born, born + '        AGE_FROM.put(id, readyAt[id]);\n')
s = s.replace('  private long minuteServed;', '''  static final java.util.Map<Integer, Double> AGE_FROM = new java.util.HashMap<>();
  static final double[][] AGE = age();
  static double[][] age() {
    String v = System.getenv("COLD_AGE");
    if (v == null || v.isBlank()) return new double[0][];
    String[] p = v.split(",");
    double[][] a = new double[p.length][];
    for (int i = 0; i < p.length; i++) {
      String[] kv = p[i].split(":");
      a[i] = new double[] {Double.parseDouble(kv[0]), Double.parseDouble(kv[1])};
    }
    return a;
  }
  static double ageFactor(int id, double at) {
    Double from = AGE_FROM.get(id);
    if (from == null) return 1;
    double age = at - from;
    for (double[] step : AGE) if (age < step[0]) return step[1];
    return 1;
  }
  private long minuteServed;''', 1)
open(sys.argv[2], 'w').write(s)
PY
javac -d $OUT/cls -cp "$LAUNCH" $OUT/src/FleetRun.java
CP="$OUT/cls:$LAUNCH" COLD=${COLD:-0} measurements/simulator-calibration/rung-host-2026-12-02/repredict-all.sh "$@"
