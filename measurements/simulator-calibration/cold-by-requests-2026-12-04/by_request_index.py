# A scale-out's new instance against the old one by the requests the new one has started (its
# 0th-99th, 100th-199th, ... request after it went in service), each bucket against the old
# instance's requests sent over the same seconds, in replays whose event logs name the instance
# (builds after 2026-12-04). Set beside by_instance_age.py's 15 s windows: the cold start goes by
# requests served, and ttotal's closed-loop probe loads a new instance about twice as hard as a
# replay's open-loop surge does, so the two agree by request and not by age.
# Run from the repository's root:
#   python3 measurements/simulator-calibration/cold-by-requests-2026-12-04/by_request_index.py DIR [replay ...]
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'live-idle-rung-2026-12-04'))
from by_instance_age import ts, events

EDGES = [0, 100, 200, 300, 450, 600, 800]

def main():
    d = sys.argv[1]
    for name in sys.argv[2:] or ['long-a', 'long-b']:
        rep = json.load(open(f'{d}/replay-{name}.json'))
        path = f'{d}/replay-{name}-events.jsonl'
        ev = events(path if os.path.exists(path) else path + '.gz')
        t0 = ts(rep['live']['started_at'])
        ins = [e['at_s'] for e in rep['measured_events'] if e['what'] == 'in_service' and e['to'] > e['from']]
        ok = sorted([e for e in ev if e.get('outcome') == 'OK' and e.get('instance')], key=lambda e: ts(e['sent_at']))
        if not ins or not ok:
            print(f'{name:8} no scale-out or no event names its instance')
            continue
        at = ins[0]
        old = ok[0]['instance']
        new = [e for e in ok if e['instance'] != old]
        svc = lambda e: (ts(e['completed_at']) - ts(e['sent_at'])) * 1000 - e['queue_wait_ms']
        olds = [(ts(e['sent_at']) - t0 - at, svc(e)) for e in ok if e['instance'] == old]
        cells = []
        for a, b in zip(EDGES, EDGES[1:]):
            chunk = new[a:b]
            if len(chunk) < 20:
                break
            t1, t2 = (ts(chunk[0]['sent_at']) - t0 - at), (ts(chunk[-1]['sent_at']) - t0 - at)
            o = [s for t, s in olds if t1 <= t <= t2]
            nm, om = sum(svc(e) for e in chunk) / len(chunk), sum(o) / max(1, len(o))
            cells.append(f'{a}-{b} ({t1:.0f}-{t2:.0f} s) x{nm / om:.2f}')
        print(f'{name:8}', '  '.join(cells))

if __name__ == '__main__':
    main()
