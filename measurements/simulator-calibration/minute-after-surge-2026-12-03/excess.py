# What a scale-out costs the live fleet: the service time (response less the server's queue wait) of
# every request sent in a window beyond the run's warm median (requests sent 120-240 s), summed in
# units of that median, for the 15 s before the second instance went in service (the surge, one
# instance, the new one booting), the 15 s after, and three 15 s control windows (5-20 s quiet, and
# 60 and 90 s after in service); beside it the excess the qmax warm-up ramp gives a new instance
# (each bucket's factor - 1, at its reference rung's host speed, over its requests). Needs the
# backfilled qmax artifacts dump-predictions.sh writes to OUT/qmax and its predictions (for the
# alignment). Run from the repository's root:  python3 .../excess.py runs/m1 f g h i j
import json, gzip, sys, datetime as dt, statistics as st
def ts(s): return dt.datetime.fromisoformat(s.replace('Z', '+00:00')).timestamp()
out = sys.argv[1]
for run in sys.argv[2:]:
    d = 'measurements/simulator-calibration/' + (run if run.startswith('quiet-') else 'quiet-2026-12-02' + run); key = run[-1]
    w = json.load(open(f'{out}/qmax/qmax-{key}.json'))['warmup_ramp']
    hs = w['reference_host_cpu_ms'] / w['host_cpu_ms'] if w.get('reference_host_cpu_ms') else 1
    prev, ramp = 0, 0.0
    for b in w['buckets']:
        n = b['until_request'] - prev; prev = b['until_request']
        ramp += n * (b['service_ms_mean'] * hs / w['reference_service_ms'] - 1)
    for r in 'ab':
        ev = [json.loads(l) for l in gzip.open(f'{d}/replay-long-{r}-events.jsonl.gz', 'rt')]
        rep = json.load(open(f'{d}/replay-long-{r}.json'))
        ins = [e for e in rep['measured_events'] if e['what'] == 'in_service'][0]['at_s']
        first = float(open(f'{out}/pred-{key}-{r}.txt').readline().split()[0])
        t0 = ts(ev[0]['intended_at']) - first
        ok = [(ts(e['sent_at']) - t0, e['latency_ms'] - e['queue_wait_ms']) for e in ev if e['outcome'] == 'OK']
        warm = st.median([s for t, s in ok if 120 < t < 240])
        def exc(a, b):
            v = [s for t, s in ok if a <= t < b]; return sum(s - warm for s in v) / warm, len(v)
        s1, _ = exc(ins - 16, ins - 1); e1, n1 = exc(ins - 1, ins + 14)
        c0, _ = exc(5, 20); c1, _ = exc(ins + 60, ins + 75); c2, _ = exc(ins + 90, ins + 105)
        print(f"{key}{r} warm {warm:.0f} ms; excess in warm units: 15 s before in service {s1:+.1f},"
              f" 15 s after {e1:+.1f} ({n1} requests); controls {c0:+.1f} {c1:+.1f} {c2:+.1f};"
              f" the warm-up ramp gives a new instance {ramp:+.1f}")
