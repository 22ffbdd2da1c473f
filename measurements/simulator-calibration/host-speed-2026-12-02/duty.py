import time,sys,os
os.sched_setaffinity(0,{int(sys.argv[1])})
duty=float(sys.argv[3]); end=time.time()+float(sys.argv[2]); out=[]
while time.time()<end:
    t=time.time(); n=0; busy=0.0
    while time.time()-t<5:
        b=time.time()
        while time.time()-b<0.1*duty:
            for i in range(2000): pass
            n+=1
        busy+=time.time()-b
        time.sleep(0.1*(1-duty))
    out.append(int(n/busy/10))
print(sys.argv[1], duty, ' '.join(str(x) for x in out))
