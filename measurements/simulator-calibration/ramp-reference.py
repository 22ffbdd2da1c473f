# The warm-up ramp against the ladder N=4 rung instead of the warm-up's last half (offline, from qmax
# artifacts with a warmup_ramp; the rung's mean service time from qmax-events.jsonl.gz beside the artifact when
# there is one, else approximated as latency_mean_ms - breakdown.queue_wait_p50_ms).
# Usage: python3 ramp-reference.py QMAX_JSON...
import json, gzip, sys, os
from datetime import datetime
def ts(s): return datetime.fromisoformat(s.replace('Z','+00:00')).timestamp()
def factors(buckets, ref):
    out=[]
    for b in buckets:
        f=b['service_ms_mean']/ref if ref>0 else 1
        if not f>1.05: break
        out.append((b['until_request'], f))
    return out
for f in sys.argv[1:]:
    a=json.load(open(f)); r=a['warmup_ramp']; n=r['concurrency']
    print('==', f)
    old=factors(r['buckets'], r['reference_service_ms'])
    print('  buckets ms:', [round(b['service_ms_mean'],1) for b in r['buckets']], 'requests', r['requests'])
    print('  old ref %.1f ms (last half): factors %s ramp %d' % (r['reference_service_ms'], [round(x,2) for _,x in old], old[-1][0] if old else 0))
    rung=None
    for s in a['steps']:
        st=s.get('stability')
        if s['concurrency']==n and s.get('usable',True) and (st is None or st['stable']) and s.get('breakdown'):
            rung=s; break
    if not rung: print('  no settled N=%d rung'%n); continue
    b=rung['breakdown']
    approx=rung['latency_mean_ms']-b['queue_wait_p50_ms']
    print('  rung run %d step %d: ok %d latency_mean %.1f qw p50 %.1f p95 %.1f -> latency_mean - qw_p50 = %.1f ms' % (rung['run_index'],rung['step_index'],rung['ok'],rung['latency_mean_ms'],b['queue_wait_p50_ms'],b['queue_wait_p95_ms'],approx))
    ev=os.path.join(os.path.dirname(f),'qmax-events.jsonl.gz')
    exact=None
    if os.path.exists(ev):
        es=[json.loads(l) for l in gzip.open(ev,'rt')]
        es=[e for e in es if e.get('run_index')==rung['run_index'] and e.get('step_index')==rung['step_index'] and e['concurrency']==n and e['outcome']=='OK']
        t0=min(ts(e['sent_at']) for e in es)
        # the rung's workers started at its first send; counted windows
        cw=[w for w in rung['stability']['windows'] if w['counted']] if rung.get('stability') else None
        lo,hi=(cw[0]['start_s'],cw[-1]['end_s']) if cw else (None,None)
        sel=[e for e in es if lo is None or lo <= ts(e['completed_at'])-t0 < hi]
        svc=[(ts(e['completed_at'])-ts(e['sent_at']))*1000-e['queue_wait_ms'] for e in sel if e.get('queue_wait_ms') is not None]
        lat=[e['latency_ms'] for e in sel]
        exact=sum(svc)/len(svc)
        print('  from events: %d in counted windows (artifact ok %d), latency mean %.1f (artifact %.1f), service mean %.1f ms' % (len(sel), rung['ok'], sum(lat)/len(lat), rung['latency_mean_ms'], exact))
    ref = exact if exact is not None else approx
    new=factors(r['buckets'], ref)
    print('  new ref %.1f ms (%s): factors %s ramp %d' % (ref, 'events' if exact else 'latency mean - qw p50', [round(x,2) for _,x in new], new[-1][0] if new else 0))
