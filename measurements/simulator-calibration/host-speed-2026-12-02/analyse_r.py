import json,sys,gzip,os,datetime,collections,statistics as st
R=sys.argv[1]; B=float(sys.argv[2]) if len(sys.argv)>2 else 10
def ts(s): return datetime.datetime.fromisoformat(s.replace('Z','+00:00')).timestamp()
ev=[json.loads(l) for l in (gzip.open(R+'/events.jsonl.gz','rt') if os.path.exists(R+'/events.jsonl.gz') else open(R+'/events.jsonl'))]
t0=min(ts(e['intended_at']) for e in ev)
b=collections.defaultdict(list)
for e in ev:
    b[int((ts(e['intended_at'])-t0)//B)].append(e)
pr={0:collections.defaultdict(list),1:collections.defaultdict(list)}
for c in (0,1):
    for l in open(f"{R}/probe{c}.txt"):
        t,core,ns=l.split(); k=int((float(t)-t0)//B)
        pr[c][k].append(int(ns))
ref=min(min(st.median(v) for v in pr[c].values() if v) for c in (0,1))
print("  t_s   req  shed  svc_ms  p95ttfab | core0 core1 speed (1 = fastest 10 s)")
for k in sorted(b):
    es=b[k]; ok=[e for e in es if e['outcome']=='OK']
    svc=st.mean(e['latency_ms']-(e.get('queue_wait_ms') or 0) for e in ok) if ok else float('nan')
    tt=sorted(e['ttfab_ms'] for e in ok); p95=tt[int(0.95*(len(tt)-1))] if tt else float('nan')
    sp=' '.join('%5.2f'%(ref/st.median(pr[c][k])) if pr[c][k] else '   - ' for c in (0,1))
    print(f"{k*B:5.0f} {len(es):5d} {len(es)-len(ok):5d} {svc:7.1f} {p95:8.1f} | {sp}")
