# per-second service-time factor per core from the probe files: factor = ns(t) / ns_ref
import json,sys,gzip,os,datetime,statistics as st
R=sys.argv[1]; mode=sys.argv[2]; dur=int(sys.argv[3]) if len(sys.argv)>3 else 240
def ts(s): return datetime.datetime.fromisoformat(s.replace('Z','+00:00')).timestamp()
ev=[json.loads(l) for l in (gzip.open(R+'/events.jsonl.gz','rt') if os.path.exists(R+'/events.jsonl.gz') else open(R+'/events.jsonl'))]
t0=min(ts(e['intended_at']) for e in ev)
pr={}
for c in (0,1):
    pr[c]=[(float(l.split()[0]),int(l.split()[2])) for l in open(f"{R}/probe{c}.txt")]
allns=sorted(n for c in (0,1) for _,n in pr[c] if 0<=_-t0<dur)
ref = float(mode) if mode.replace('.','').isdigit() else {'fast':allns[len(allns)//10],'median':allns[len(allns)//2]}[mode]
out=[]
for s in range(dur):
    row=[s]
    for c in (0,1):
        w=[n for t,n in pr[c] if s-1<=t-t0<s+2]
        row.append(st.median(w)/ref if w else 1.0)
    out.append(row)
for r in out: print(r[0],'%.4f'%r[1],'%.4f'%r[2])
print("ref_ns",ref,file=sys.stderr)
