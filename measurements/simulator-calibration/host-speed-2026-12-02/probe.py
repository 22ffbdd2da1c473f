import time,sys,os
core=int(sys.argv[1]); os.sched_setaffinity(0,{core})
end=time.time()+float(sys.argv[2]); out=open(sys.argv[3],'w')
while time.time()<end:
    c=time.thread_time_ns()
    for i in range(20000): pass
    c=time.thread_time_ns()-c
    out.write("%.3f %d %d\n"%(time.time(),core,c)); out.flush()
    time.sleep(0.25)
