# Counts, per configuration ("== <run> <config>" headers of repredict-age.sh's output), how many
# figures came within the targets: shed within +-2 pp (every replay), the long replays' minute 1
# (after the surge) and minutes 2-3 (quiet) within +-15 %, the quickstart replay's minute 1 (its
# quiet tail) within +-15 %; "(u)" (unresolved: the measured p95's interval wider than the target)
# is left out of the minutes.
#   python3 .../tally.py FILE...
import re, sys
from collections import defaultdict
n = defaultdict(lambda: defaultdict(lambda: [0, 0]))
for f in sys.argv[1:]:
    cfg = None
    for line in open(f):
        if line.startswith('== '):
            cfg = ' '.join(line.split()[2:])
            continue
        m = re.match(r'(\S+) (quickstart|long-a|long-b) .*shed \S+ vs \S+ \(([-+0-9.]+) pp\)(.*)', line)
        if not m or cfg is None:
            continue
        kind, shed, rest = m.group(2), float(m.group(3)), m.group(4)
        n[cfg]['shed'][0] += abs(shed) <= 2; n[cfg]['shed'][1] += 1
        for mi, err, u in re.findall(r'm(\d) ([-+0-9.]+)%(\(u\))?', rest):
            if u:
                continue
            key = 'quickstart tail' if kind == 'quickstart' else ('minute 1' if mi == '1' else 'quiet m2-m3')
            n[cfg][key][0] += abs(float(err)) <= 15; n[cfg][key][1] += 1
for cfg, figs in n.items():
    print(f'{cfg:28}', '  '.join(f'{k} {a}/{b}' for k, (a, b) in figs.items()))
