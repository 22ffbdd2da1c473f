# The live fleet's mean service time (response less the server's queue wait) per 15 s of sends in
# each long replay, against its median over 180-240 s (both instances long warm). The first
# instance was deployed fresh and warmed 20 s at the quiet rate; the second went in service at
# ~55 s (the fourth window). Needs dump-predictions.sh's output for the alignment.
# Run from the repository's root:  python3 .../service_by_15s.py runs/m1 f g h i j
import json, gzip, sys, datetime as dt, statistics as st
def ts(s): return dt.datetime.fromisoformat(s.replace('Z', '+00:00')).timestamp()
out = sys.argv[1]
print('run warm_ms  x per 15 s: 0-15 15-30 30-45 45-60 60-75 ...')
for run in sys.argv[2:]:
    for r in 'ab':
        d = 'measurements/simulator-calibration/' + (run if run.startswith('quiet-') else 'quiet-2026-12-02' + run); key = run[-1]
        ev = [json.loads(l) for l in gzip.open(f'{d}/replay-long-{r}-events.jsonl.gz', 'rt')]
        first = float(open(f'{out}/pred-{key}-{r}.txt').readline().split()[0])
        t0 = ts(ev[0]['intended_at']) - first
        ok = [(ts(e['sent_at']) - t0, e['latency_ms'] - e['queue_wait_ms']) for e in ev if e['outcome'] == 'OK']
        warm = st.median([s for t, s in ok if 180 < t < 240])
        bins = {}
        for t, s in ok: bins.setdefault(int(t // 15), []).append(s)
        print(key + r, f"{warm:.0f}", ' '.join(f"{st.mean(bins[b]) / warm:.2f}" for b in sorted(bins) if b < 16))
