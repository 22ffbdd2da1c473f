# Each instance of the long replays against the model's warm instance, per 30 s of the trace from
# the minute after the surge on: each request's service time (send to the end of the response, less
# the server's queue wait) over what the model gives a warm instance for it (the engine occupancy
# the replay's instance model states, x its idle factor when the request found the instance idle),
# with HOST=1 also over its core's speed that second (the probe time over the reference the replay
# applied, as the prediction does); the mean per instance, "first/second". The first instance was
# deployed 20 s before the trace; the second went in service at ~55 s.
# Run from the repository's root (runs n on; their event logs name the instance):
#   HOST=1 python3 measurements/simulator-calibration/new-instance-tail-2026-12-04/tail.py measurements/simulator-calibration/quiet-2026-12-04r
import json, os, re, sys, statistics as st
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'live-idle-rung-2026-12-04'))
from by_instance_age import ts, events

W = 30
HOST = os.environ.get('HOST') == '1'
for d in sys.argv[1:]:
    for n in ['long-a', 'long-b']:
        r = json.load(open(f'{d}/replay-{n}.json'))
        im = r['physics']['instance_model']
        occ = float(re.search(r'engine occupancy = [0-9.]+ x S \(mean ([0-9.]+) s', im).group(1)) * 1000
        fi = re.search(r'served in x([0-9.]+) the time', im)
        fi = float(fi.group(1)) if fi else 1
        ev = events(f'{d}/replay-{n}-events.jsonl.gz')
        t0 = ts(r['live']['started_at'])
        ins = [e['at_s'] for e in r['measured_events'] if e['what'] == 'in_service' and e['to'] > e['from']][0]
        hs = r['live']['host_speed']
        ref = r['live']['host_speed_reference_cpu_ms']
        ok = [e for e in ev if e['outcome'] == 'OK' and e.get('instance')]
        if not ok:
            print(f'{d} {n}: the event log does not name the instances')
            continue
        first = ok[0]['instance']
        row = []
        for w0 in range(60, 240, W):
            cells = []
            for inst in sorted(set(e['instance'] for e in ok), key=lambda i: i != first):
                xs = []
                for e in ok:
                    t = ts(e['intended_at']) - t0
                    if e['instance'] != inst or not (w0 <= t < w0 + W):
                        continue
                    s = (ts(e['completed_at']) - ts(e['sent_at'])) * 1000 - e['queue_wait_ms']
                    f = 1
                    if HOST:
                        sec = int(ts(e['sent_at']) - hs['start_epoch_ms'] / 1000)
                        arr = hs['cpu_ms_per_second'][0 if inst == first else 1]
                        f = (arr[sec] if 0 <= sec < len(arr) and arr[sec] else ref) / ref
                    xs.append(s / (occ * f * (fi if e['queue_wait_ms'] < 1 else 1)))
                cells.append('%.2f' % st.mean(xs) if len(xs) > 5 else '  - ')
            row.append('/'.join(cells))
        print(f'{os.path.basename(d)} {n} second in service at {ins:.0f} s; per {W} s from 60 s, first/second:', '  '.join(row))
