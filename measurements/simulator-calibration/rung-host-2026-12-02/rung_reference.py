# Each run's reference host speed: the in-service host's mean probe time over each usable rung's
# requests (from qmax-events), interpolated at the plan's C_scale_max as the plan interpolates X.
# Run from the repository's root: python3 .../rung_reference.py quiet-2026-12-02h ...
import json,glob,gzip,sys,datetime,statistics as st
def ts(s): return datetime.datetime.fromisoformat(s.replace('Z','+00:00')).timestamp()*1000
for R in sys.argv[1:]:
    d='measurements/simulator-calibration/'+R
    q=json.load(open(glob.glob(d+'/qmax-*.json')[0])); p=json.load(open(d+'/plan-quickstart.json'))
    hs=q['host_speed']; t0=hs['start_epoch_ms']; h0=hs['cpu_ms_per_second'][hs['in_service_host']]
    f=glob.glob(d+'/qmax-events.jsonl*')[0]; op=gzip.open if f.endswith('gz') else open
    win={}
    for line in op(f,'rt'):
        e=json.loads(line); k=(e['run_index'],e['step_index'])
        a=ts(e['sent_at']); b=ts(e['completed_at']); w=win.setdefault(k,[a,b]); w[0]=min(w[0],a); w[1]=max(w[1],b)
    rung=[]
    for s in q['steps']:
        if not s['usable']: continue
        a,b=win[(s['run_index'],s['step_index'])]
        i0=max(0,int((a-t0)/1000)); i1=int((b-t0)/1000)
        v=[x for x in h0[i0:i1+1] if x]
        rung.append((s['concurrency'],st.mean(v),s['achieved_rps']))
    C=p['c_scale_max']
    lo=max([r for r in rung if r[0]<=C],key=lambda r:r[0]); hi=min([r for r in rung if r[0]>=C],key=lambda r:r[0])
    w=0 if hi[0]==lo[0] else (C-lo[0])/(hi[0]-lo[0])
    ref=lo[1]*(1-w)+hi[1]*w
    print(R,'C_scale_max',C,'X',round(p['throughput_at_c_scale_max_rps'],3),'lo',lo,'hi',hi,'ref %.3f median %.3f'%(ref,st.median([x for x in h0 if x])))
