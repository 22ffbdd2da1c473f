#!/bin/bash
# every 5 s: per java process, CPU ticks by thread class (compiler, gc, other), cumulative
out=$1; dur=$2
end=$(( $(date +%s) + dur ))
while [ $(date +%s) -lt $end ]; do
  t=$(date +%s.%N)
  for p in $(pgrep -f 'java'); do
    cmd=$(tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null | cut -c1-400)
    case "$cmd" in *AOTCache*|*ActiveProcessorCount*) kind=instance;; *TtsBench*) kind=bench;; *) kind=platform;; esac
    awk -v t=$t -v p=$p -v k=$kind 'BEGIN{}
      FNR==1{ s=$0; i=index(s,") "); name=substr(s, index(s,"(")+1, i-index(s,"(")-1); rest=substr(s,i+2); split(rest,a," ");
        cls="other"; if (name ~ /Compiler/) cls="jit"; else if (name ~ /GC|VM Thread|G1/) cls="gc";
        c[cls]+=a[12]+a[13] }
      END{ printf "%s %s %s jit=%d gc=%d other=%d\n", t, p, k, c["jit"], c["gc"], c["other"] }' /proc/$p/task/*/stat 2>/dev/null
  done >> $out
  sleep 5
done
