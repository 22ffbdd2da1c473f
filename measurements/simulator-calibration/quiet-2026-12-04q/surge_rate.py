# The quickstart replay's surge, seconds 28-48 (one instance, saturated): what the live instance
# served against the plan's X, and roughly what the model gives it (X over its host factor).
# Usage, from measurements/simulator-calibration: python3 quiet-2026-12-04q/surge_rate.py quiet-2026-12-03k ...
import json,gzip,datetime,sys,statistics as st
def ts(s): return datetime.datetime.fromisoformat(s.replace('Z','+00:00')).timestamp()
for d in sys.argv[1:]:
    try:
        r=json.load(open(f'{d}/replay-quickstart.json'))
        ev=[json.loads(l) for l in gzip.open(f'{d}/replay-events.jsonl.gz')]
    except Exception as e:
        print(d,'skip',e); continue
    t0=ts(r['live']['started_at'])
    X=json.load(open(f'{d}/plan-quickstart.json'))['throughput_at_c_scale_max_rps']
    ok=[ts(e['completed_at'])-t0 for e in ev if e['outcome']=='OK']
    lo,hi=28,48
    served=sum(1 for t in ok if lo<=t<hi)/(hi-lo)
    hs=r['live'].get('host_speed'); ref=r['live'].get('host_speed_reference_cpu_ms')
    hf=None
    if hs and ref:
        c=hs['cpu_ms_per_second'][hs['in_service_host']][lo:hi]; c=[x for x in c if x]
        hf=st.mean(c)/ref
    svc=[e['latency_ms']-(e.get('queue_wait_ms') or 0) for e in ev if e['outcome']=='OK' and lo<=ts(e['completed_at'])-t0<hi]
    print('%-20s X %.2f live served %.2f req/s in [%d,%d) = %.3f X; host factor %s -> model ~%.3f X; live mean service %.1f ms'%(d,X,served,lo,hi,served/X, '%.3f'%hf if hf else '-', 1/hf if hf else float('nan'), st.mean(svc)))
