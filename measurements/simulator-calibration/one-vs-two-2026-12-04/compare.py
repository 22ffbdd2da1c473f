# One instance against two at 0.45 X each (one-vs-two.sh, warmup-long.sh): per replay and instance,
# requests that found it idle or queued (server queue wait under 1 ms), their mean service and first
# byte, and the p95 TTFAB, beside the replay's predicted and measured p95 per minute; then, per 30 s
# since the replay's first request, the idle and queued requests' mean service time (the instance
# warming). The event logs of 1-1 and 1-2 also hold an earlier attempt of the same replay (a first
# pass of the script, 06:01 and 06:05 UTC, whose .json and .out the later pass overwrote): each log
# is split where its sends pause for over a minute and every attempt is shown, the last one being
# the replay the .out records.
# Run from the repository's root: python3 measurements/simulator-calibration/one-vs-two-2026-12-04/compare.py
import gzip, json, re, statistics as st, datetime as dt
D = 'measurements/simulator-calibration/one-vs-two-2026-12-04'
# the replays in the order they ran (runs.txt), warmup-long.sh's 180 s warm-ups after one-vs-two.sh's
NAMES = list(dict.fromkeys(l.split()[0] for l in open(f'{D}/runs.txt') if ' start ' in l))

def ts(s):
    s = s.replace('Z', ''); h, _, f = s.partition('.')
    return dt.datetime.fromisoformat(h).timestamp() + float('0.' + f[:6])
def m(xs): return f'{st.mean(xs):5.1f}' if xs else '    -'
def svc(e): return (ts(e['completed_at']) - ts(e['sent_at'])) * 1000 - e['queue_wait_ms']
def fb(e): return e['ttfab_ms'] - e['send_lag_ms'] - e['queue_wait_ms']

def attempts(name):
    ok = sorted((e for e in (json.loads(l) for l in gzip.open(f'{D}/replay-{name}-events.jsonl.gz', 'rt'))
                 if e.get('outcome') == 'OK'), key=lambda e: ts(e['sent_at']))
    runs, last = [], None
    for e in ok:
        t = ts(e['sent_at'])
        if last is None or t - last > 60:
            runs.append([])
        runs[-1].append(e); last = t
    return runs

warming = []
for name in NAMES:
    out = open(f'{D}/replay-{name}.out').read()
    mins = re.findall(r'p95 TTFAB min (\d)\s+(\d+) ms\s+(\d+) ms\s+([-+0-9.]+) %', out)
    runs = attempts(name)
    for i, ok in enumerate(runs):
        start = dt.datetime.fromtimestamp(ts(ok[0]['sent_at']), dt.timezone.utc).strftime('%H:%M')
        label = f'{name} ({start})'
        recorded = i == len(runs) - 1
        print(f'{label}: {len(ok)} ok' + ('; predicted/measured p95 per minute: ' + ', '.join(
            f'm{a} {p}/{q} ms ({e} %)' for a, p, q, e in mins) if recorded else '; an earlier attempt, its .out overwritten'))
        for inst in sorted({e['instance'] for e in ok}):
            w = [e for e in ok if e['instance'] == inst]
            idle = [e for e in w if e['queue_wait_ms'] < 1]; q = [e for e in w if e['queue_wait_ms'] >= 1]
            tt = sorted(e['ttfab_ms'] for e in w)
            print(f'  {inst}: n {len(w)} idle {len(idle)} queued {len(q)}  service {m([svc(e) for e in idle])} /'
                  f' {m([svc(e) for e in q])} ms  first byte {m([fb(e) for e in idle])} / {m([fb(e) for e in q])} ms'
                  f'  p95 {tt[int(.95 * len(tt))]:.1f} ms')
        t0 = ts(ok[0]['sent_at']); row = []
        for lo in range(0, 150, 30):
            w = [e for e in ok if lo <= ts(e['sent_at']) - t0 < lo + 30]
            row.append(f'{lo}-{lo + 30}: {m([svc(e) for e in w if e["queue_wait_ms"] < 1]).strip()}/'
                       f'{m([svc(e) for e in w if e["queue_wait_ms"] >= 1]).strip()}')
        warming.append(f'{label:17} ' + '  '.join(row))
print('== idle / queued mean service (ms) per 30 s since the replay\'s first request')
print('\n'.join(warming))
