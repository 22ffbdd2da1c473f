import json,sys,gzip,os,statistics as st,datetime as dt
def load(p):
    return [json.loads(l) for l in (open(p) if os.path.exists(p) else gzip.open(p+".gz","rt"))]
def ts(s): return dt.datetime.fromisoformat(s.replace('Z','+00:00')).timestamp()
for d in sys.argv[1:]:
    ev=load(d+'/replay-events.jsonl')
    t0=min(ts(e['intended_at']) for e in ev)
    out=[]
    for a in range(0,90,5):
        ok=[e for e in ev if e['status']==200 and a<=ts(e['completed_at'])-t0<a+5]
        rf=[e for e in ev if e['status']!=200 and a<=ts(e['intended_at'])-t0<a+5]
        svc=[e['latency_ms']-e['queue_wait_ms'] for e in ok]
        out.append(f"{a}:{len(ok)/5:.1f}/{st.mean(svc) if svc else 0:.0f}/{len(rf)/5:.1f}")
    print(d, ' '.join(out))
