# The minute after the surge at 10 s resolution: each long replay's measured p95 TTFAB per 10 s of
# arrivals beside the re-prediction's (dump-predictions.sh's pred-<run>-<a|b>.txt), and the new
# instance's (instance 1) predicted p95 in brackets; then the minute's p95 (60-120 s) both ways.
# The measured arrivals are aligned to the predicted ones (same seed, same schedule) by the first.
# Run from the repository's root:  python3 .../by_10s.py runs/m1 f g h i j
import json, gzip, sys, datetime as dt
def ts(s): return dt.datetime.fromisoformat(s.replace('Z', '+00:00')).timestamp()
def p95(v):
    v = sorted(v); return v[int(.95 * (len(v) - 1))] if v else float('nan')
out = sys.argv[1]
for run in sys.argv[2:]:
    for r in 'ab':
        d = 'measurements/simulator-calibration/' + (run if run.startswith('quiet-') else 'quiet-2026-12-02' + run); key = run[-1]
        ev = [json.loads(l) for l in gzip.open(f'{d}/replay-long-{r}-events.jsonl.gz', 'rt')]
        pr = [tuple(float(x) for x in l.split()) for l in open(f'{out}/pred-{key}-{r}.txt')]
        t0 = ts(ev[0]['intended_at']) - pr[0][0]
        mb, pb, p1 = {}, {}, {}
        for e in ev:
            if e['outcome'] == 'OK':
                mb.setdefault(int((ts(e['intended_at']) - t0) // 10), []).append(e['ttfab_ms'])
        for t, x, i, k in pr:
            pb.setdefault(int(t // 10), []).append(x)
            if i == 1: p1.setdefault(int(t // 10), []).append(x)
        m1 = [x for b in range(6, 12) for x in mb.get(b, [])]
        q1 = [x for b in range(6, 12) for x in pb.get(b, [])]
        print(f"{key}{r} minute 1 measured {p95(m1):.0f} predicted {p95(q1):.0f} | per 10 s, measured/predicted (new instance): "
              + ' '.join(f"{b*10}:{p95(mb.get(b, [])):.0f}/{p95(pb.get(b, [])):.0f}({p95(p1.get(b, [])):.0f})" for b in range(5, 12)))
