#!/usr/bin/env python3
"""Per 10 s of a live replay: arrivals, shed, p50 and p95 TTFAB of the answered requests.

usage: tenths.py RUN_DIR   (reads replay-cal.json for the start and replay-events.jsonl[.gz])
"""
import json, sys, datetime, math, gzip, os

d = sys.argv[1]
start = json.load(open(f"{d}/replay-cal.json"))["live"]["started_at"]
def t(s):
    return datetime.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
t0 = t(start)
bins = {}
events = f"{d}/replay-events.jsonl"
for line in (open(events) if os.path.exists(events) else gzip.open(events + ".gz", "rt")):
    e = json.loads(line)
    k = int((t(e["intended_at"]) - t0) // 10)
    b = bins.setdefault(k, {"n": 0, "shed": 0, "ttfab": []})
    b["n"] += 1
    if e.get("outcome") == "OK" and e.get("ttfab_ms") is not None:
        b["ttfab"].append(e["ttfab_ms"])
    elif e.get("outcome") == "REJECTED":
        b["shed"] += 1
def pct(xs, p):
    xs = sorted(xs)
    return xs[max(0, math.ceil(p / 100 * len(xs)) - 1)] if xs else float("nan")
print("from_s  arrivals  shed  p50_ms  p95_ms")
for k in sorted(bins):
    b = bins[k]
    print(f"{k*10:6d} {b['n']:9d} {b['shed']:5d} {pct(b['ttfab'],50):7.1f} {pct(b['ttfab'],95):7.1f}")
