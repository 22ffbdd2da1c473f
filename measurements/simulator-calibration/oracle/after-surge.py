import json,sys,datetime as dt,gzip,os
def load(p):
    return [json.loads(l) for l in (open(p) if os.path.exists(p) else gzip.open(p+".gz","rt"))]
def ts(s): return dt.datetime.fromisoformat(s.replace('Z','+00:00')).timestamp()
def p95(xs):
    xs=sorted(xs); return xs[min(len(xs)-1,int(0.95*len(xs)))] if xs else float('nan')
for d in sys.argv[1:]:
    ev=load(d+'/replay-events.jsonl')
    t0=min(ts(e['intended_at']) for e in ev)
    def sel(a,b): return [e for e in ev if e['status']==200 and a<=ts(e['intended_at'])-t0<b]
    q=load(d+'/qmax-events.jsonl') if os.path.exists(d+'/qmax-events.jsonl') or os.path.exists(d+'/qmax-events.jsonl.gz') else []
    n1=[e['ttfab_ms'] for e in q if e['concurrency']==1 and e['status']==200]
    out=[]
    for a,b in [(0,20),(60,70),(70,90)]:
        s=sel(a,b); out.append(f"{a}-{b}: p95 {p95([e['ttfab_ms'] for e in s]):.0f} (eng1st p95 {p95([e['engine_first_chunk_ms'] for e in s]):.0f}, qwait p95 {p95([e['queue_wait_ms'] for e in s]):.0f}) n={len(s)}")
    print(os.path.basename(d), f"ladderN1 p95 {p95(n1):.0f}" if n1 else "", ' | '.join(out))
