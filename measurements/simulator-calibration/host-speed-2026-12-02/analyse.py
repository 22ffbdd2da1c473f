import json,sys,gzip,os,datetime,collections
R=sys.argv[1]; B=float(sys.argv[2]) if len(sys.argv)>2 else 20
t0=float(open(R+'/deploy-end').read())
def ts(s): return datetime.datetime.fromisoformat(s.replace('Z','+00:00')).timestamp()
ev=[json.loads(l) for l in (gzip.open(R+'/events.jsonl.gz','rt') if os.path.exists(R+'/events.jsonl.gz') else open(R+'/events.jsonl'))]
b=collections.defaultdict(list)
for e in ev:
    if e['outcome']!='OK': continue
    c=ts(e['completed_at'])-t0
    b[int(c//B)].append(e)
cpu=collections.defaultdict(list)
for l in open(R+'/cpu.txt'):
    f=l.split(); t=float(f[0])-t0
    if f[2]!='instance': continue
    d={k:int(v) for k,v in (x.split('=') for x in f[3:])}
    cpu[int(t//B)].append((t,d))
print("age_s  req/s  lat_ms  svc_ms  first_ms | inst cpu%: jit gc other")
prev=None
for k in sorted(b):
    es=b[k]; n=len(es)
    lat=sum(e['latency_ms'] for e in es)/n
    svc=sum(e['latency_ms']-(e.get('queue_wait_ms') or 0) for e in es)/n
    fc=sorted(e.get('engine_first_chunk_ms') or 0 for e in es)[n//2]
    s=''
    if k in cpu and k+1 in cpu:
        (ta,da),(tb,db)=cpu[k][0],cpu[k+1][0]
        s=' '.join('%5.1f'%((db[c]-da[c])/(tb-ta)) for c in ('jit','gc','other'))
    print(f"{k*B:5.0f} {n/B:6.2f} {lat:7.1f} {svc:7.1f} {fc:7.1f} | {s}")
