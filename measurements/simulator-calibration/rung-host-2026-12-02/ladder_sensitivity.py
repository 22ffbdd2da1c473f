# How sensitive the instance was to its host over each ladder: 1/X of the rungs at N >= 2 regressed
# on the rung's mean probe time; k = the slope's share at the mean (1: as sensitive as the probe).
# Run from the repository's root: python3 .../ladder_sensitivity.py quiet-2026-12-02f ...
import json,glob,gzip,sys,datetime,statistics as st
def ts(s): return datetime.datetime.fromisoformat(s.replace('Z','+00:00')).timestamp()*1000
for R in sys.argv[1:]:
    d='measurements/simulator-calibration/'+R
    q=json.load(open(glob.glob(d+'/qmax-*.json')[0]))
    hs=q['host_speed']; t0=hs['start_epoch_ms']; h0=hs['cpu_ms_per_second'][hs['in_service_host']]
    f=glob.glob(d+'/qmax-events.jsonl*')[0]; op=gzip.open if f.endswith('gz') else open
    win={}
    for line in op(f,'rt'):
        e=json.loads(line); k=(e['run_index'],e['step_index'])
        a=ts(e['sent_at']); b=ts(e['completed_at']); w=win.setdefault(k,[a,b]); w[0]=min(w[0],a); w[1]=max(w[1],b)
    pts=[]
    for s in q['steps']:
        if s['concurrency']<2: continue
        a,b=win[(s['run_index'],s['step_index'])]
        v=[x for x in h0[max(0,int((a-t0)/1000)):int((b-t0)/1000)+1] if x]
        pts.append((st.mean(v),1000/s['achieved_rps'],s['usable']))
    for label,P in (('usable',[p for p in pts if p[2]]),('all',pts)):
        xs=[p[0] for p in P]; ys=[p[1] for p in P]
        mx,my=st.mean(xs),st.mean(ys)
        beta=sum((x-mx)*(y-my) for x,y in zip(xs,ys))/sum((x-mx)**2 for x in xs)
        alpha=my-beta*mx
        p0=mx; k=beta*p0/(alpha+beta*p0)
        print(R,label,'n',len(P),'probe range %.2f-%.2f'%(min(xs),max(xs)),'k=%.2f'%k)
