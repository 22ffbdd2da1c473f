import time,sys,os
os.sched_setaffinity(0,{int(sys.argv[1])})
end=time.time()+float(sys.argv[2]); out=[]
while time.time()<end:
    t=time.time(); n=0
    while time.time()-t<5:
        for i in range(20000): pass
        n+=1
    out.append(n)
print(sys.argv[1], ' '.join(str(x) for x in out))
