# A replay's live service time (response less queue wait) per 10 s beside each host's probe factor
# against the recorded reference. Run from the repository's root:
#   python3 .../service_by_10s.py quiet-2026-12-02i long-a
import json,sys,datetime,statistics as st,glob
def ts(s): return datetime.datetime.fromisoformat(s.replace('Z','+00:00')).timestamp()*1000
run,name=sys.argv[1],sys.argv[2]
d='measurements/simulator-calibration/'+run
r=json.load(open(f'{d}/replay-{name}.json'))
hs=r['live']['host_speed']; t0=hs['start_epoch_ms']; H=hs['cpu_ms_per_second']; ref=r['live']['host_speed_reference_cpu_ms']
f=glob.glob(f'{d}/replay-{name}-events.jsonl*')[0]
import gzip; op=gzip.open if f.endswith('gz') else open
bins={}
for line in op(f,'rt'):
    e=json.loads(line)
    if e['outcome']!='OK': continue
    t=(ts(e['sent_at'])-t0)/1000; b=int(t//10)
    svc=e['latency_ms']-(e['queue_wait_ms'] or 0)
    bins.setdefault(b,[]).append(svc)
ins=r['measured']['in_service_per_second']
print(run,name,'ref',ref)
for b in sorted(bins):
    if b<0 or b>=24: continue
    h=[ [x for x in H[k][b*10:b*10+10] if x] for k in range(len(H))]
    hm=[st.mean(x)/ref if x else float('nan') for x in h]
    n_in=st.mean(ins[b*10:b*10+10]) if ins else 0
    print(' %3ds n=%4d svc mean %6.1f p50 %6.1f  host0 x%.2f host1 x%.2f  in_service %.1f'%(b*10,len(bins[b]),st.mean(bins[b]),st.median(bins[b]),hm[0],hm[1],n_in))
