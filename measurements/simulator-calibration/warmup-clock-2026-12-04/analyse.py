# Which clock the new instance's tail runs on (warmup-clock.sh). Per replay: each successful
# request's service time (completion minus send minus server queue wait) per second of audio it
# returned (texts differ in length), for requests that found the instance idle (queue wait under
# 1 ms; the quiet minutes are mostly these) and those that queued; per 30 s of the flat trace, with
# the instance's requests served before the bin (the warm-up's initial_served plus the trace's) and
# its age (the warm-up's length plus the time since the trace's first request; the deploy's own
# few seconds before the warm-up are left out). Each bin is also given against the mean of the
# w60 replays' last 60 s (the warmest this experiment saw), so the two arms can be read side by side
# on either clock.
# Run from the repository's root: python3 measurements/simulator-calibration/warmup-clock-2026-12-04/analyse.py
import gzip, json, statistics as st, datetime as dt, re
D = 'measurements/simulator-calibration/warmup-clock-2026-12-04'
NAMES = list(dict.fromkeys(l.split()[0] for l in open(f'{D}/runs.txt') if ' start ' in l))

def ts(s):
    s = s.replace('Z', ''); h, _, f = s.partition('.')
    return dt.datetime.fromisoformat(h).timestamp() + float('0.' + f[:6])
def norm(e): return ((ts(e['completed_at']) - ts(e['sent_at'])) * 1000 - e['queue_wait_ms']) / e['audio_s']
def idle(e): return e['queue_wait_ms'] < 1

runs = {}
for name in NAMES:
    try:
        ev = [json.loads(l) for l in gzip.open(f'{D}/replay-{name}-events.jsonl.gz', 'rt')]
        rep = json.load(open(f'{D}/replay-{name}.json'))
    except FileNotFoundError:
        continue
    ok = sorted((e for e in ev if e.get('outcome') == 'OK' and e.get('audio_s')), key=lambda e: ts(e['sent_at']))
    w = rep['live']['warmup']
    warm_s = int(re.match(r'w(\d+)', name).group(1))
    runs[name] = (ok, w.get('initial_served'), warm_s, len(ev), len({e['instance'] for e in ok}))

ref_idle, ref_q = [], []
for name, (ok, served0, warm_s, n, insts) in runs.items():
    if name.startswith('w60'):
        t0 = ts(ok[0]['sent_at'])
        tail = [e for e in ok if ts(e['sent_at']) - t0 >= 180]
        ref_idle += [norm(e) for e in tail if idle(e)]; ref_q += [norm(e) for e in tail if not idle(e)]
if not ref_idle:  # before a w60 replay has run: the w20 ones against their own last 60 s
    for name, (ok, *_ ) in runs.items():
        t0 = ts(ok[0]["sent_at"]); tail = [e for e in ok if ts(e["sent_at"]) - t0 >= 180]
        ref_idle += [norm(e) for e in tail if idle(e)]; ref_q += [norm(e) for e in tail if not idle(e)]
ri, rq = st.mean(ref_idle), st.mean(ref_q)
print(f'reference (w60 replays, their last 60 s): idle {ri:.1f} ms, queued {rq:.1f} ms per audio second'
      f' ({len(ref_idle)} / {len(ref_q)} requests)')
print('per 30 s of the trace: requests served before the bin | age at its start (s) | idle ms/audio-s (x ref, n) | queued (x ref, n)')
for name, (ok, served0, warm_s, n, insts) in runs.items():
    print(f'{name}: warm-up {warm_s} s served {served0}; {len(ok)} ok of {n} events on {insts} instance(s)')
    t0 = ts(ok[0]['sent_at']); before = served0
    for lo in range(0, 240, 30):
        b = [e for e in ok if lo <= ts(e['sent_at']) - t0 < lo + 30]
        i = [norm(e) for e in b if idle(e)]; q = [norm(e) for e in b if not idle(e)]
        fi = f'{st.mean(i):5.1f} (x{st.mean(i) / ri:.3f}, {len(i):3d})' if i else '    -'
        fq = f'{st.mean(q):5.1f} (x{st.mean(q) / rq:.3f}, {len(q):3d})' if q else '    -'
        print(f'  {lo:3d}-{lo + 30:3d} s  served {before:5d}  age {warm_s + lo:4d}  idle {fi}  queued {fq}')
        before += len(b)

# Against the model's warm instance, as new-instance-tail-2026-12-04/tail.py does for the long
# replays: each request's service time over the engine occupancy the replay's instance model states
# (x its idle factor when the request found the instance idle), and also over its core's probed
# speed that second; per 30 s, undivided / hosts divided out.
print('== against the model\'s warm instance, per 30 s of the trace: undivided / hosts divided out')
for name, (ok, served0, warm_s, n, insts) in runs.items():
    r = json.load(open(f'{D}/replay-{name}.json'))
    im = r['physics']['instance_model']
    occ = float(re.search(r'engine occupancy = [0-9.]+ x S \(mean ([0-9.]+) s', im).group(1)) * 1000
    fi = re.search(r'served in x([0-9.]+) the time', im)
    fi = float(fi.group(1)) if fi else 1
    hs = r['live']['host_speed']; ref = r['live']['host_speed_reference_cpu_ms']
    t0 = ts(ok[0]['sent_at']); row = []
    for lo in range(0, 240, 30):
        a, b = [], []
        for e in ok:
            if not lo <= ts(e['sent_at']) - t0 < lo + 30:
                continue
            s = (ts(e['completed_at']) - ts(e['sent_at'])) * 1000 - e['queue_wait_ms']
            m = occ * (fi if idle(e) else 1)
            sec = int(ts(e['sent_at']) - hs['start_epoch_ms'] / 1000)
            arr = hs['cpu_ms_per_second'][0]
            h = (arr[sec] if 0 <= sec < len(arr) and arr[sec] else ref) / ref
            a.append(s / m); b.append(s / (m * h))
        row.append(f'{st.mean(a):.2f}/{st.mean(b):.2f}')
    print(f'{name:6} occupancy {occ:.1f} ms, idle x{fi}:', '  '.join(row))
