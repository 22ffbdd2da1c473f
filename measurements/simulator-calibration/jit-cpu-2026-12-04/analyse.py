# jit-cpu.sh's samples: per 15 s since the instance's JVM started, the CPU its JIT compiler threads
# (C1 + C2) and the whole process used, as shares of the instance's 500 mcpu quota, and the
# requests the trace sent it then (the events; warm-up requests are not in them), with the mean
# service time of those that found it idle. Run from the repository's root:
#   python3 measurements/simulator-calibration/jit-cpu-2026-12-04/analyse.py
import gzip, json, statistics as st, datetime as dt, os
D = 'measurements/simulator-calibration/jit-cpu-2026-12-04'
QUOTA = 0.5
def ts(s):
    s = s.replace('Z', ''); h, _, f = s.partition('.')
    return dt.datetime.fromisoformat(h).timestamp() + float('0.' + f[:6])
for name in ['open', 'closed']:
    f = f'{D}/cpu-{name}.txt'
    if not os.path.exists(f):
        continue
    rows = [list(map(float, l.split())) for l in open(f) if not l.startswith('#')]
    ev = []
    if os.path.exists(f'{D}/replay-{name}-events.jsonl.gz'):
        ev = [json.loads(l) for l in gzip.open(f'{D}/replay-{name}-events.jsonl.gz', 'rt')]
    ok = [e for e in ev if e.get('outcome') == 'OK']
    rep = json.load(open(f'{D}/replay-{name}.json'))
    w = rep['live']['warmup']
    t0 = rows[0][0]
    first = min((ts(e['sent_at']) for e in ok), default=None)
    print(f'== {name}: warm-up {w.get("seconds")} s (its second half) served {w.get("initial_served")} in all;'
          f' the trace from {first - t0:.0f} s after the first sample; at the first sample the JVM had used'
          f' {rows[0][4]:.1f} s CPU, JIT {rows[0][1] + rows[0][2]:.1f} s')
    print('  from-to s   JIT CPU / quota   GC+VM / quota   all CPU / quota   JIT / all   trace requests   idle service ms')
    for lo in range(0, int(rows[-1][0] - t0), 15):
        a = [r for r in rows if r[0] - t0 >= lo]
        b = [r for r in rows if r[0] - t0 >= lo + 15]
        if not a or not b:
            break
        ra, rb = a[0], b[0]; dtw = rb[0] - ra[0]
        jit = (rb[1] + rb[2]) - (ra[1] + ra[2]); vm = rb[3] - ra[3]; cpu = rb[4] - ra[4]
        reqs = [e for e in ok if ra[0] <= ts(e['sent_at']) < rb[0]]
        idle = [(ts(e['completed_at']) - ts(e['sent_at'])) * 1000 - e['queue_wait_ms'] for e in reqs if e['queue_wait_ms'] < 1]
        print(f'  {lo:4d}-{lo + 15:<4d}  {jit / dtw / QUOTA:13.1%}   {vm / dtw / QUOTA:11.1%}   {cpu / dtw / QUOTA:13.1%}   {jit / cpu if cpu else 0:8.1%}'
              f'   {len(reqs):14d}   {st.mean(idle) if idle else float("nan"):14.1f}')
