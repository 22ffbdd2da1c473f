#!/usr/bin/env python3
"""Minute 1 (the quiet minute after the surge) of each recorded replay: the measured p95 TTFAB, its
distribution-free 95 % interval (order statistics, the normal approximation replay uses), the
prediction, and what replay's rule makes of it (within ±15 %; else a miss only outside the interval,
otherwise unresolved). Also the p95 without the first 5 s after the surge (its backlog's spill-over).

usage: p95-interval.py PREDICTED_FILE RUN_DIR...
PREDICTED_FILE: lines "<run> ... minute 1: p95 <ms> ms ..." (RePredict.java's output, this build's
model; predicted-minute1.txt here); a run missing from it takes the replay artifact's own prediction.
"""
import gzip, json, math, os, re, sys
from datetime import datetime


def ts(s):
    return datetime.fromisoformat(s.replace('Z', '+00:00')).timestamp()


def pct(xs, p):
    xs = sorted(xs); n = len(xs); k = (n - 1) * p / 100; f = math.floor(k); c = min(f + 1, n - 1)
    return xs[f] + (xs[c] - xs[f]) * (k - f)


def interval(s):
    n = len(s); sd = math.sqrt(n * .95 * .05)
    if n == 0 or sd < 1:
        return None
    lo = math.floor(n * .95 - 1.959964 * sd); hi = math.ceil(n * .95 + 1.959964 * sd)
    return None if lo < 1 or hi > n else (s[lo - 1], s[hi - 1])


pred = {}
for line in open(sys.argv[1]):
    m = re.match(r'(\S+) .*minute 1: p95 ([0-9.]+) ms', line)
    if m:
        pred[m.group(1)] = float(m.group(2))
print("| run | ok requests | measured p95 | its 95 % interval | predicted | error | rule | p95 from 65 s |")
print("|---|---|---|---|---|---|---|---|")
for d in sys.argv[2:]:
    name = os.path.basename(d.rstrip('/'))
    rep = json.load(open(d + '/replay-quickstart.json'))
    t0 = ts(rep['live']['started_at'])
    ev = [json.loads(l) for l in gzip.open(d + '/replay-events.jsonl.gz', 'rt')]

    def ttfab(a, b):
        return sorted(e['ttfab_ms'] + e['send_lag_ms'] for e in ev
                      if e['outcome'] == 'OK' and e['ttfab_ms'] is not None and a <= ts(e['intended_at']) - t0 < b)

    xs = ttfab(60, 120)
    row = [r for r in rep['comparison'] if r['figure'] == 'p95_ttfab_ms' and r['minute'] == 1][0]
    p = pct(xs, 95); iv = interval(xs); pr = pred.get(name, row['predicted']); err = 100 * (pr - p) / p
    rule = 'within' if abs(err) <= 15 else ('miss' if iv and not iv[0] <= pr <= iv[1] else 'unresolved')
    ivs = f"{iv[0]:.1f}–{iv[1]:.1f} ms ({100 * (iv[0] / p - 1):+.0f} % / {100 * (iv[1] / p - 1):+.0f} %)" if iv else "none"
    print(f"| {name} | {len(xs)} | {p:.1f} ms | {ivs} | {pr:.1f} ms | {err:+.1f} % | {rule} | {pct(ttfab(65, 120), 95):.1f} ms |")
