# A recorded qmax artifact (measured before its steps carried host_cpu_ms) with each step's
# host_cpu_ms added: the in-service host's mean probe second over the rung's counted windows,
# recovered from qmax-events.jsonl (the requests sent from the first counted window's start to the
# rung's last completion), and the warm-up ramp's host_cpu_ms (the log's first 20 s) and
# reference_host_cpu_ms (its reference rung's). Writes the copy to OUT. Run from the repository's root:
#   python3 .../backfill_host_cpu.py quiet-2026-12-02h runs/qmax-h.json
import json, glob, gzip, sys, datetime, statistics as st
def ts(s): return datetime.datetime.fromisoformat(s.replace('Z', '+00:00')).timestamp() * 1000
run, out = sys.argv[1], sys.argv[2]
d = 'measurements/simulator-calibration/' + run
qf = glob.glob(d + '/qmax-*.json')[0]
q = json.load(open(qf))
hs = q['host_speed']; t0 = hs['start_epoch_ms']; h0 = hs['cpu_ms_per_second'][hs['in_service_host']]
f = glob.glob(d + '/qmax-events.jsonl*')[0]; op = gzip.open if f.endswith('gz') else open
first = {}; last = {}
for line in op(f, 'rt'):
    e = json.loads(line); k = (e['run_index'], e['step_index'])
    a = ts(e['sent_at']); b = ts(e['completed_at'])
    first[k] = min(first.get(k, a), a); last[k] = max(last.get(k, b), b)
for s in q['steps']:
    k = (s['run_index'], s['step_index'])
    a, b = first[k], last[k]
    w = (s.get('stability') or {}).get('windows')
    counted = [x for x in (w or []) if x.get('counted')]
    if counted:  # window times are seconds after the rung's workers started (its first send)
        a, b = a + 1000 * counted[0]['start_s'], a + 1000 * counted[-1]['end_s']
    v = [x for x in h0[max(0, int((a - t0) // 1000)):int((b - t0) // 1000) + 1] if x]
    s.setdefault('host_cpu_ms', st.mean(v))  # a step that recorded its own keeps it
ramp = q.get('warmup_ramp')
if ramp:  # the warm-up is the log's first seconds (20 s in these runs); its reference rung's host
    v = [x for x in h0[:20] if x]
    ramp['host_cpu_ms'] = st.mean(v)
    src = ramp.get('reference_source') or ''
    if src.startswith('ladder N='):
        n = int(src.split('=')[1].split()[0])
        ramp['reference_host_cpu_ms'] = next(s['host_cpu_ms'] for s in q['steps'] if s['concurrency'] == n and s.get('usable', True))
json.dump(q, open(out, 'w'), indent=2)
print(run, [(s['concurrency'], round(s['host_cpu_ms'], 2)) for s in q['steps']])
