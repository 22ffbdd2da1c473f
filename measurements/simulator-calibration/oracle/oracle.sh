#!/bin/bash
# Each recorded quiet quickstart replay predicted again offline (qmax-reproducibility/RePredict.java, this build's model on
# the run's own inputs and seed): with the recorded X_sat, with a refusal cost TAU_MS, and with the
# "oracle" X_sat = what the live instance served while saturated (served.py). Prints one row a run.
# usage: measurements/simulator-calibration/oracle/oracle.sh CLASSPATH_FILE [TAU_MS]
# (CLASSPATH_FILE: one line joining every module's target/classes and the jars `mvn dependency:build-classpath` lists for them)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
J=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
CP=$(cat "$1")
TAU=${2:-13.3}
printf "%-6s %9s %9s %12s %9s %12s\n" run measured "pred τ0" "pred τ=$TAU" "X served" "pred oracle"
for d in "$here"/stab1 "$here"/one1 "$here"/stab2 "$here"/stab3 "$root"/measurements/qmax-reproducibility/run{1,2,3,4,5}; do
  read -r _ x m < <(python3 "$here/served.py" "$d")
  p0=$($J -cp "$CP" "$root/measurements/qmax-reproducibility/RePredict.java" "$d" 2>/dev/null | sed -n 's/.*this build: shed .* = \(.*\) %/\1/p')
  pt=$($J -cp "$CP" "$root/measurements/qmax-reproducibility/RePredict.java" "$d" "$TAU" 2>/dev/null | sed -n 's/.*this build.*: shed .* = \(.*\) %/\1/p')
  po=$($J -cp "$CP" "$root/measurements/qmax-reproducibility/RePredict.java" "$d" 0 "$x" 2>/dev/null | sed -n 's/.*this build.*: shed .* = \(.*\) %/\1/p')
  printf "%-6s %8.2f%% %8.2f%% %11.2f%% %9s %11.2f%%\n" "$(basename "$d")" "$m" "$p0" "$pt" "$x" "$po"
done
