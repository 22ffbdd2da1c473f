# The long replays' minutes after the surge, request by request as the live fleet served them:
# how many requests found an instance idle (the server's queue wait under 1 ms) or queued, their
# mean service time (send to the end of the response, less the queue wait) and first byte (TTFAB
# less the send lag and the queue wait), the queued requests' mean wait, and the minute's p95
# TTFAB; per instance where the event log names it (builds after 2026-12-04). Beside the qmax
# artifact's idle-start rung, measured on one instance at the same rate per instance.
# Run from the repository's root:
#   python3 measurements/simulator-calibration/live-idle-rung-2026-12-04/quiet_minutes.py DIR
import json, gzip, glob, os, sys, datetime as dt, statistics as st

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from by_instance_age import ts, events  # one parser for both scripts

def svc(e): return (ts(e['completed_at']) - ts(e['sent_at'])) * 1000 - e['queue_wait_ms']
def fb(e): return e['ttfab_ms'] - e['send_lag_ms'] - e['queue_wait_ms']
def m(xs): return f'{st.mean(xs):5.1f}' if xs else '    -'

def line(label, w):
    idle = [e for e in w if e['queue_wait_ms'] < 1]
    q = [e for e in w if e['queue_wait_ms'] >= 1]
    tt = sorted(e['ttfab_ms'] for e in w)
    return (f'{label:22} n {len(w):4} idle {len(idle):4} queued {len(q):4}  service {m([svc(e) for e in idle])} /'
            f' {m([svc(e) for e in q])} ms  first byte {m([fb(e) for e in idle])} / {m([fb(e) for e in q])} ms'
            f'  wait {m([e["queue_wait_ms"] for e in q])} ms  p95 {tt[int(0.95 * len(tt))]:6.1f} ms')

d = sys.argv[1]
q = json.load(open(glob.glob(f'{d}/qmax-*.json')[0])).get('idle_start')
if q:
    print(f'qmax idle-start rung: {q["idle_requests"]} idle, {q["queued_requests"]} queued at {q["rate_rps"]:.2f} req/s;'
          f' service {q.get("idle_service_ms", 0):.1f} / {q.get("queued_service_ms", 0):.1f} ms,'
          f' first byte {q.get("idle_first_byte_ms", 0):.1f} / {q.get("queued_first_byte_ms", 0):.1f} ms')
for name in ['long-a', 'long-b']:
    rep = json.load(open(f'{d}/replay-{name}.json'))
    path = f'{d}/replay-{name}-events.jsonl'
    ev = events(path if os.path.exists(path) else path + '.gz')
    t0 = ts(rep['live']['started_at'])
    ok = [e for e in ev if e.get('outcome') == 'OK']
    order = []
    for e in sorted(ok, key=lambda e: ts(e['sent_at'])):
        if e.get('instance') and e['instance'] not in order:
            order.append(e['instance'])
    for lo, hi in [(60, 120), (120, 180), (180, 240)]:
        w = [e for e in ok if lo <= ts(e['sent_at']) - t0 < hi]
        print(line(f'{name} {lo}-{hi} s', w))
        for i, inst in enumerate(order):
            print(line(f'  {"first" if i == 0 else "second"} instance', [e for e in w if e.get('instance') == inst]))
