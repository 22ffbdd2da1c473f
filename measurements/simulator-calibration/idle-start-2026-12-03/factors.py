#!/usr/bin/env python3
"""Idle against queued starts in each run's open-loop replay events, as qmax's idle-start rung
measures them (IdleStartRung): a request is queued when the server's queue wait is at least 1 ms;
service = latency - send lag - queue wait, first byte = TTFAB - send lag - queue wait.
Usage (from the repository's root): factors.py measurements/simulator-calibration/quiet-*/replay*-events.jsonl.gz"""
import gzip, json, sys
for f in sys.argv[1:]:
    idle, queued = [], []
    for line in gzip.open(f, 'rt'):
        e = json.loads(line)
        if e.get('outcome') != 'OK' or e.get('load_model') != 'open-loop':
            continue
        lag, qw = e['send_lag_ms'], e['queue_wait_ms']
        (queued if qw >= 1.0 else idle).append((e['latency_ms'] - lag - qw, e['ttfab_ms'] - lag - qw))
    m = lambda xs, i: sum(x[i] for x in xs) / len(xs)
    if not idle or not queued:
        print(f, 'idle', len(idle), 'queued', len(queued)); continue
    print('%-75s idle %4d queued %4d  service %.1f / %.1f ms x%.3f  first byte %.1f / %.1f ms x%.3f' % (
        f, len(idle), len(queued), m(idle, 0), m(queued, 0), m(idle, 0) / m(queued, 0),
        m(idle, 1), m(queued, 1), m(idle, 1) / m(queued, 1)))
