import json,sys,datetime as dt,gzip,os
def load(p):
    return [json.loads(l) for l in (open(p) if os.path.exists(p) else gzip.open(p+".gz","rt"))]
def ts(s): return dt.datetime.fromisoformat(s.replace('Z','+00:00')).timestamp()
for d in sys.argv[1:]:
    ev=load(d+'/replay-events.jsonl')
    r=json.load(open(d+'/replay-quickstart.json'))
    t0=min(ts(e['intended_at']) for e in ev)
    surge=20.0
    s2=r['measured'].get('surge_to_in_service_s')
    a,b=surge+5,surge+s2
    ok=sum(1 for e in ev if e['status']==200 and a<=ts(e['completed_at'])-t0<b)
    sf=[c for c in r['comparison'] if c['minute'] is None and c['figure']=='shed_fraction'][0]
    print(d, f"{ok/(b-a):.3f}", sf['measured'])
