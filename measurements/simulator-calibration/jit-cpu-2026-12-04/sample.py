# Samples a process's threads' CPU time every second until it exits (or SECONDS pass): per line the
# epoch second, then the CPU seconds since the first sample of its JIT compiler threads (C1, C2),
# its garbage collector and VM threads, and all of it. Usage: python3 sample.py PID OUT [SECONDS]
import os, sys, time
pid, out = sys.argv[1], sys.argv[2]
limit = float(sys.argv[3]) if len(sys.argv) > 3 else 1e9
tick = os.sysconf('SC_CLK_TCK')
def read():
    c = {'c1': 0, 'c2': 0, 'vm': 0, 'all': 0}
    for t in os.listdir(f'/proc/{pid}/task'):
        try:
            comm = open(f'/proc/{pid}/task/{t}/comm').read().strip()
            f = open(f'/proc/{pid}/task/{t}/stat').read().rsplit(')', 1)[1].split()
        except OSError:
            continue
        cpu = (int(f[11]) + int(f[12])) / tick
        c['all'] += cpu
        if comm.startswith('C1 Compiler'): c['c1'] += cpu
        elif comm.startswith('C2 Compiler'): c['c2'] += cpu
        elif comm.startswith(('VM Thread', 'GC', 'VM Periodic')): c['vm'] += cpu
    return c
start = time.time()
with open(out, 'w') as o:
    o.write('# epoch_s c1_s c2_s vm_s all_s (CPU seconds of the process\'s threads, cumulative since its start)\n')
    while time.time() - start < limit:
        try:
            c = read()
        except (FileNotFoundError, ProcessLookupError):
            break
        o.write(f"{time.time():.1f} {c['c1']:.2f} {c['c2']:.2f} {c['vm']:.2f} {c['all']:.2f}\n"); o.flush()
        time.sleep(1)
