#!/usr/bin/env bash
# Every figure of measurements/open-loop.md in one run, on a quiet machine (nothing else running):
# the open-loop ramp (burst and paced responses), the 4-shard merge equality, and the three
# overhead ratios. Raw output under target/bench/scale-<UTC time>/ (or $1).
#   benchmarks/scale-figures.sh [output-dir]
# Wall time: about 17 minutes on the 2-vCPU team machine (8 open loop, 9 overheads), build
# excluded; open-loop.sh and overheads.sh take the environment variables listed in each.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here/../target/bench/scale-$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$out"
"$here/open-loop.sh" "$out/open-loop"
"$here/overheads.sh" "$out/overheads"
echo "== summary ==" >&2
grep -h '^highest rate held' "$out"/open-loop/ramp-*.md || true
grep -h '^merge of' "$out/open-loop/shards.txt" || true
cat "$out/overheads/ratio-1.txt" "$out/overheads/ratio-2.txt" "$out/overheads/ratio-3.txt"
