# Each instance's mean service time (send to the end of the response, less the server's queue
# wait) per 15 s after the second instance went in service, in one replay whose event log says
# which instance served each request (the "instance" field, from the local router's
# X-Speechscale-Instance; builds after 2026-12-04). The first instance has served since the deploy
# (its warm-up and the quiet 20 s), the second from its in-service second: their ratio in the same
# window is the new instance's slowness at that age with the host's speed in both.
# Run from the repository's root:
#   python3 measurements/simulator-calibration/live-idle-rung-2026-12-04/by_instance_age.py DIR [replay ...]
# DIR holds replay-<name>.json and replay-<name>-events.jsonl(.gz); names default to long-a long-b.
import json, gzip, os, sys, datetime as dt, statistics as st

def ts(s):
    s = s.replace('Z', '+00:00')
    head, _, zone = s.partition('+')
    if '.' in head:  # Python's fromisoformat takes at most 6 fraction digits
        whole, frac = head.split('.')
        head = whole + '.' + frac[:6]
    return dt.datetime.fromisoformat(head + '+' + zone).timestamp()

def events(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        return [json.loads(l) for l in f if l.strip()]

def main():
    d = sys.argv[1]
    names = sys.argv[2:] or ['long-a', 'long-b']
    W = 15
    print(f'{"replay":10} {"in svc":>6}  per {W} s after the second went in service: new ms / old ms (ratio)')
    for name in names:
        rep = json.load(open(f'{d}/replay-{name}.json'))
        path = f'{d}/replay-{name}-events.jsonl'
        ev = events(path if os.path.exists(path) else path + '.gz')
        t0 = ts(rep['live']['started_at'])
        ins = [e['at_s'] for e in rep['measured_events'] if e['what'] == 'in_service' and e['to'] > e['from']]
        if not ins:
            print(f'{name:10} no scale-out')
            continue
        at = ins[0]
        ok = [e for e in ev if e.get('outcome') == 'OK' and e.get('instance')]
        if not ok:
            print(f'{name:10} no event names its instance (a build before 2026-12-04)')
            continue
        first_seen = {}
        for e in sorted(ok, key=lambda e: ts(e['sent_at'])):
            first_seen.setdefault(e['instance'], ts(e['sent_at']) - t0)
        order = sorted(first_seen, key=first_seen.get)
        old, new = order[0], order[1] if len(order) > 1 else None
        bins = {}
        for e in ok:
            t = ts(e['sent_at']) - t0 - at
            if t < 0:
                continue
            s = (ts(e['completed_at']) - ts(e['sent_at'])) * 1000 - e['queue_wait_ms']
            bins.setdefault(int(t // W), {}).setdefault(e['instance'], []).append(s)
        cells = []
        for b in sorted(bins):
            o, n = bins[b].get(old, []), bins[b].get(new, [])
            if len(o) < 5 or len(n) < 5:
                cells.append(f'{b*W}-{b*W+W}: -')
                continue
            cells.append(f'{b*W}-{b*W+W}: {st.mean(n):.0f}/{st.mean(o):.0f} (x{st.mean(n)/st.mean(o):.2f})')
        print(f'{name:10} {at:6.1f}  new {new} first sent {first_seen.get(new, float("nan")):.1f} s')
        for i in range(0, len(cells), 4):
            print(' ' * 19 + '  '.join(cells[i:i + 4]))


if __name__ == '__main__':
    main()
