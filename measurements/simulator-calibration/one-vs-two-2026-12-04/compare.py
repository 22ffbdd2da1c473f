# One instance against two at 0.45 X each (one-vs-two.sh): per replay and instance, requests that
# found it idle or queued (server queue wait under 1 ms), their mean service and first byte, and
# the p95 TTFAB; then the replay's predicted and measured p95 per minute; then, per 30 s since
# the first request, the idle and queued requests' mean service time (the instance warming).
# Run from the repository's root: python3 measurements/simulator-calibration/one-vs-two-2026-12-04/compare.py
import gzip, json, re, statistics as st, datetime as dt
D = 'measurements/simulator-calibration/one-vs-two-2026-12-04'
def ts(s):
    s = s.replace('Z', ''); h, _, f = s.partition('.')
    return dt.datetime.fromisoformat(h).timestamp() + float('0.' + f[:6])
def m(xs): return f'{st.mean(xs):5.1f}' if xs else '    -'
for name in ['1-1', '2-1', '1-2', '2-2']:
    ev = [json.loads(l) for l in gzip.open(f'{D}/replay-{name}-events.jsonl.gz', 'rt')]
    ok = [e for e in ev if e.get('outcome') == 'OK']
    out = open(f'{D}/replay-{name}.out').read()
    mins = re.findall(r'p95 TTFAB min (\d)\s+(\d+) ms\s+(\d+) ms\s+([-+0-9.]+) %', out)
    print(f'{name}: {len(ok)} ok; predicted/measured p95 per minute: ' + ', '.join(f'm{a} {p}/{q} ms ({e} %)' for a, p, q, e in mins))
    for inst in sorted({e['instance'] for e in ok}):
        w = [e for e in ok if e['instance'] == inst]
        idle = [e for e in w if e['queue_wait_ms'] < 1]; q = [e for e in w if e['queue_wait_ms'] >= 1]
        svc = lambda e: (ts(e['completed_at']) - ts(e['sent_at'])) * 1000 - e['queue_wait_ms']
        fb = lambda e: e['ttfab_ms'] - e['send_lag_ms'] - e['queue_wait_ms']
        tt = sorted(e['ttfab_ms'] for e in w)
        print(f'  {inst}: n {len(w)} idle {len(idle)} queued {len(q)}  service {m([svc(e) for e in idle])} / {m([svc(e) for e in q])} ms'
              f'  first byte {m([fb(e) for e in idle])} / {m([fb(e) for e in q])} ms  p95 {tt[int(.95 * len(tt))]:.1f} ms')
print('== idle / queued mean service (ms) per 30 s since the first request')
for name in ['1-1', '2-1', '1-2', '2-2']:
    ok = [e for e in (json.loads(l) for l in gzip.open(f'{D}/replay-{name}-events.jsonl.gz', 'rt')) if e.get('outcome') == 'OK']
    t0 = min(ts(e['sent_at']) for e in ok)
    row = []
    for lo in range(0, 150, 30):
        w = [e for e in ok if lo <= ts(e['sent_at']) - t0 < lo + 30]
        s = lambda e: (ts(e['completed_at']) - ts(e['sent_at'])) * 1000 - e['queue_wait_ms']
        row.append(f'{lo}-{lo + 30}: {st.mean([s(e) for e in w if e["queue_wait_ms"] < 1]):.1f}/'
                   f'{st.mean([s(e) for e in w if e["queue_wait_ms"] >= 1]):.1f}')
    print(name, '  '.join(row))
