#!/bin/bash
# Regenerates every figure in README.md's "The fleet simulator" section and checks that the README
# states each one. Run from anywhere in the checkout (about 8 minutes on a quiet 2-core machine):
#   measurements/readme-simulator.sh            # figures and check: target/readme-simulator/
#   measurements/readme-simulator.sh --check    # only re-check the README against the last run
# It rewrites examples/kokoro-82m/simulate-kokoro-82m.{json,html} (the day the README's table
# shows, as docs/tts-bench.md's command writes them). SOURCE_DATE_EPOCH (default: that artifact's
# created_at) fixes created_at, so a re-run on the same code writes the same bytes.
# Figures that depend on `tts-bench search` (re-run this after a change to the search): the
# bullet "`tts-bench search` on this day ..." (the recommended policy and its scale-in, its held-out
# instance-hours and attainment, the plan's and the cheapest deployable rival's).
# Figures from live runs (the simulator against the live fleet) are recounted from the replay
# artifacts archived in measurements/simulator-calibration-data.tar.xz; measuring new live runs is
# measurements/simulator-calibration.sh (20 min, quiet machine), whose replays the archive holds.
set -eu
ROOT=$(git rev-parse --show-toplevel)
cd "$ROOT"
OUT=target/readme-simulator
EX=examples/kokoro-82m
Q=$EX/qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json
T=$EX/ttotal-kokoro-82m-force-desired-g5xlarge-8b1b96bc.json
P=$EX/plan-kokoro-82m.json
mkdir -p $OUT
if [ "${1:-}" != "--check" ]; then
  START=$(date +%s)
  if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(python3 -c "import json,datetime;print(int(datetime.datetime.fromisoformat(json.load(open('$EX/simulate-kokoro-82m.json'))['created_at'].replace('Z','+00:00')).timestamp()))")
  fi
  export SOURCE_DATE_EPOCH
  bin/tts-bench --help > /dev/null
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" > $OUT/load.txt
  # the README's day: every policy side by side (docs/tts-bench.md#tts-bench-simulate)
  /usr/bin/time -f "%e %U %S" -o $OUT/day.time bin/tts-bench simulate --qmax $Q --ttotal $T --plan $P \
    --pattern diurnal --duration 24h --policies plan,naive,invocations,cpu,fixed:280 \
    --price-per-hour 1.408 \
    --output $EX/simulate-kokoro-82m.json --report $EX/simulate-kokoro-82m.html > $OUT/day.txt
  # the step scale-in alarm plans deployed before (Average over 60 s), on the same day
  bin/tts-bench simulate --qmax $Q --ttotal $T --plan $P --pattern diurnal --duration 24h \
    --policies plan:average_60s --output $OUT/average-60s.json --report $OUT/average-60s.html \
    > $OUT/average-60s.txt
  # the search on the same day (depends on tts-bench search)
  bin/tts-bench search --qmax $Q --ttotal $T --plan $P --pattern diurnal \
    --output $OUT/plan-search-kokoro-82m.json > $OUT/search.txt 2> $OUT/search.err
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/load.txt
  mkdir -p $OUT/calibration
  tar xJf measurements/simulator-calibration-data.tar.xz -C $OUT/calibration \
    --wildcards './quiet-*/replay-*.json'
  echo "regenerated in $(( $(date +%s) - START )) s (git $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!examples' || echo ', uncommitted changes'), $(date -u +%Y-%m-%dT%H:%MZ))" > $OUT/took.txt
fi
cat $OUT/took.txt 2>/dev/null || true
python3 - "$OUT" "$EX" <<'PY'
import glob, json, math, re, sys
out, ex = sys.argv[1], sys.argv[2]
readme = open("README.md").read()
sim = readme[readme.index("## The fleet simulator"):readme.index("## Layout")]
prose = " ".join(sim.split())   # the README wraps its lines; a figure may span a line break
day = json.load(open(f"{ex}/simulate-kokoro-82m.json"))
pol = {p["name"]: p for p in day["policies"]}
avg = json.load(open(f"{out}/average-60s.json"))["policies"][0]
wall = float(open(f"{out}/day.time").read().split()[0])
table = open(f"{out}/day.txt").read().splitlines()
rows = table[table.index(next(l for l in table if l.startswith("policy "))):]
rows = rows[:next(i for i, l in enumerate(rows) if not l.strip())]
x = day["instance"]["saturated_rps"]
naive = pol["naive"]
figures = []   # (what, the words the README must contain)
def fig(what, text):
    figures.append((what, text))
m = re.match(r"diurnal (\d+)\.\.(\d+) req/s over 86400 s \(peak at 12 h\)", day["traffic"]["description"])
fig("the day's trough and peak", f"({m.group(1)} req/s at midnight, {m.group(2)} req/s at noon;")
fig("the plan's target", f"tracking {json.load(open(f'{ex}/plan-kokoro-82m.json'))['scaling_target_value']:g} requests in flight")
fig("the day's requests", f"{round(pol['plan']['arrived'] / 1e6)} million requests")
fig("the metric delay the day ran with", f"{day['metric_publication_delay_s']:.0f} s metric publication delay")
fig("naive sheds", f"sheds {round(naive['shed_pct'])} % of the day's requests")
fig("one serial instance", f"{x:.1f} req/s per serial instance")
fig("naive's instances and what they hold", f"{naive['peak_instances']} instances hold {naive['peak_instances'] * x:.0f} req/s")
fig("the plan's attainment", f"{pol['plan']['slo_attainment_pct']:.2f} % of arrivals")
fig("the plan's p95 over the day", f"p95 over the day is {pol['plan']['ttfab_p95_ms'] / 1000:.1f} s")
fig("Average 60 s pair p95", f"p95 {avg['ttfab_p95_ms'] / 1000:.1f} s")
fig("Average 60 s pair instance-hours", f"{avg['instance_hours']:.1f} instance-hours")
cheapest = min((p for p in day["policies"] if p["slo_attainment_pct"] >= 99.9 and p["name"] != "plan"), key=lambda p: p["instance_hours"])
fig("the cheapest rival meeting the SLO", f"{cheapest['name']} is the cheapest ({cheapest['instance_hours']:.0f} instance-hours)")
# a wall time repeats only roughly (a busy machine is slower): the README's "about N s" is judged
# within +-25 % of this run's, beside the load average the run saw
m = re.search(r"simulates in about (\d+) s", prose)
stated_wall = float(m.group(1)) if m else None
# the search (depends on tts-bench search)
s = json.load(open(f"{out}/plan-search-kokoro-82m.json"))["search"]
held = {c["name"]: c for c in s["held_out_results"]}
rec = held[s["recommended"]]
fig("search: the held-out day's shift", f"the shape {s['held_out']['shift_s'] // 60} min later")
fig("search: recommended", f"recommends {s['recommended']}")
c = next(c for c in s["candidates"] if c["name"] == s["recommended"])
if c.get("scaling_metric") == "invocations_per_instance":
    # target tracking in both directions: no step scale-in, its threshold and alarm unused
    fig("search: the recommended policy", f"InvocationsPerInstance target tracking at {c['scaling_target_value']:g} per instance per minute (scale-in enabled, no step policy), cooldowns {c['scale_out_cooldown_s']} s out / {c['scale_in_cooldown_s']} s in")
else:
    fig("search: the recommended scale-in", f"scale-in at {c['scale_in_alarm'].split('_')[0].capitalize()} ≤ {c['scale_in_threshold']:g} and a {c['scale_in_cooldown_s']} s scale-in cooldown")
fig("search: its held-out attainment", f"{rec['full']['slo_attainment'] * 100:.2f} % within the SLO")
fig("search: its held-out instance-hours", f"{rec['full']['instance_hours']:.0f} instance-hours on the held-out day")
fig("search: the plan's held-out instance-hours", f"the plan {held['plan']['full']['instance_hours']:.0f}")
rivals = [c for n, c in held.items() if n not in (s["recommended"], "plan") and c["deployable"]
          and c["full"]["slo_attainment"] >= s["goal"]["min_slo_attainment"] and c["full"]["shed"] <= s["goal"]["max_shed"]]
if rivals:
    r = min(rivals, key=lambda c: c["full"]["instance_hours"])
    fig("search: the cheapest deployable rival meeting the goal", f"{r['name']} {r['full']['instance_hours']:.0f}")
# the simulator against the live fleet: runs t-w archived
judged = within = shed_ok = surge_ok = replays = 0
for f in sorted(glob.glob(f"{out}/calibration/quiet-*/replay-*.json")):
    a = json.load(open(f))
    replays += 1
    for row in a["comparison"]:
        if row["result"] == "not_judged":
            continue
        judged += 1
        within += row["result"] == "within"
        shed_ok += row["figure"] == "shed_fraction" and row["result"] == "within"
        surge_ok += row["figure"] == "surge_to_in_service_s" and row["result"] == "within"
runs = len({f.split("/")[-2] for f in glob.glob(f"{out}/calibration/quiet-*/replay-*.json")})
fig("live: judged figures within", f"{within} of {judged} judged figures over the {runs} latest live runs")
fig("live: surge within", f"surge to the next instance in service is within ±15 % in {surge_ok} of {replays} replays")
fig("live: shed within", f"shed within ±2 points in {shed_ok} of {replays}")
print("README.md, The fleet simulator: the figures this run gives\n")
print("\n".join(rows) + "\n")
stale = []
for what, text in figures:
    ok = text in prose
    print(f"  {'ok   ' if ok else 'STALE'} {what}: {text}")
    if not ok:
        stale.append(what)
load_lines = open(f"{out}/load.txt").read().splitlines()
load = " ".join(" ".join(load_lines).split())
busy = float(load_lines[0].split(":")[1].split()[0]) >= 3   # 1-min load on a 2-core machine
wall_ok = stated_wall is not None and abs(wall - stated_wall) <= 0.25 * wall
if busy and stated_wall is not None:
    # the README's figure is a quiet machine's (measurements/simulator.md); a busy one says nothing
    print(f"  n/a   the day's wall time: README about {stated_wall:.0f} s, this run {wall:.0f} s on a busy"
          f" machine ({load}): not judged, re-run on a quiet one")
else:
    print(f"  {'ok   ' if wall_ok else 'STALE'} the day's wall time: README about {stated_wall} s,"
          f" this run {wall:.0f} s (+-25 %; {load})")
    if not wall_ok:
        stale.append("the day's wall time")
table_ok = "\n".join(rows) in sim
print(f"  {'ok   ' if table_ok else 'STALE'} the policy table ({len(rows) - 1} rows)")
if not table_ok:
    stale.append("the table")
judged = len(figures) + 1 + (0 if busy and stated_wall is not None else 1)
print(f"\n{judged - len(stale)} of {judged} judged figures stated; "
      + ("the README is up to date" if not stale else "update: " + ", ".join(stale)))
sys.exit(1 if stale else 0)
PY
