# Each rung of each run's ladder: its window, the in-service host's mean probe time over it against
# the ladder's median, its mean service time and throughput. Run from the repository's root.
import json,glob,gzip,sys,datetime,statistics as st,math
def ts(s): return datetime.datetime.fromisoformat(s.replace('Z','+00:00')).timestamp()*1000
for R in sys.argv[1:]:
    d='measurements/simulator-calibration/'+R
    q=json.load(open(glob.glob(d+'/qmax-*.json')[0]))
    hs=q['host_speed']; t0=hs['start_epoch_ms']; h0=hs['cpu_ms_per_second'][q['host_speed']['in_service_host']]
    f=glob.glob(d+'/qmax-events.jsonl*')[0]
    op=gzip.open if f.endswith('gz') else open
    steps={}
    for line in op(f,'rt'):
        e=json.loads(line)
        k=(e['run_index'],e['step_index'])
        a=ts(e['sent_at']); b=ts(e['completed_at'])
        s=steps.setdefault(k,[a,b,0]); s[0]=min(s[0],a); s[1]=max(s[1],b); s[2]+=1
    allp=[x for x in h0 if x]
    ref=st.median(allp)
    print(R,'ladder median',round(ref,2))
    for (ri,si),(a,b,n) in sorted(steps.items()):
        i0=int((a-t0)/1000); i1=int((b-t0)/1000)
        p=[x for x in h0[max(i0,0):i1+1] if x]
        step=[s for s in q['steps'] if s['run_index']==ri and s['step_index']==si]
        st_=step[0] if step else None
        pm=st.mean(p) if p else float('nan')
        if st_:
            svc=st_['breakdown'].get('service_mean_ms')
            print(' N=%2d %3d-%3ds probe mean %.2f (x%.3f) svc %.1f rps %.2f'%(st_['concurrency'],i0,i1,pm,pm/ref,svc,st_['achieved_rps']))
        else:
            print(' step',ri,si,'%d-%ds'%(i0,i1),'probe %.2f'%pm,'n',n)
