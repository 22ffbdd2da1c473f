#!/usr/bin/env python3
# Per re-prediction file (repredict.sh's output): shed within +-2 pp, the quickstart's minute 1 (qm1)
# and the long replays' minutes 1-3 within +-15 % (or unresolved, as recorded), and the long minutes' mean error.
import re,sys
for f in sys.argv[1:]:
    c={'shed':[0,0],'qm1':[0,0],'m1':[0,0],'m2':[0,0],'m3':[0,0]}; s={'m1':[],'m2':[],'m3':[]}
    for l in open(f):
        m=re.search(r'(quickstart|long-\w).*\(([-+\d.]+) pp\)(.*)',l)
        if not m: continue
        c['shed'][0]+=abs(float(m.group(2)))<=2; c['shed'][1]+=1
        for k,v,u in re.findall(r'(m\d) ([-+\d.]+)%(\(u\))?',m.group(3)):
            key=('q'+k) if m.group(1)=='quickstart' else k
            c[key][1]+=1; c[key][0]+= abs(float(v))<=15 or bool(u)
            if key in s: s[key].append(float(v))
    print(f.split('/')[-1], ' '.join(f"{k} {a}/{b}" for k,(a,b) in c.items()), ' mean', ' '.join(f"{k} {sum(v)/len(v):+.1f}" for k,v in s.items()))
