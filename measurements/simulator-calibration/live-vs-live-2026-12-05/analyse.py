#!/usr/bin/env python3
"""The live fleet against itself: each quiet run's two long replays (a and b) drive the same
trace with the same seed (identical arrivals) at a fresh deployment of the same plan, minutes
apart on the same quiet machine. How far apart are their measured figures, and how often would
one live run 'predict' the other within issue 14's tolerances? Set beside the model's errors on
the same replays (o-s re-predicted offline with the current model, initial-served-2026-12-04/
repredict.txt, INITIAL_SERVED=warmup2x; t-v as recorded live).

Run from measurements/simulator-calibration:  python3 live-vs-live-2026-12-05/analyse.py
"""
import glob, json, math, re, statistics as st

TOL_PP, TOL_PCT = 2.0, 15.0
LN = math.log(1 + TOL_PCT / 100)


def load(d, run):
    return json.load(open(f"{d}/replay-long-{run}.json"))


def figures(r):
    m = r["measured"]
    f = {"shed": 100.0 * m["shed"] / m["arrivals"], "surge": m["surge_to_in_service_s"]}
    for i in (1, 2, 3):
        f[f"m{i}"] = m["minutes"][i]["p95_ttfab_ms"]
    return f


def model_errors():
    """run -> replay -> figure -> error (pp for shed, % otherwise)."""
    out = {}
    section = None
    for line in open("initial-served-2026-12-04/repredict.txt"):
        if line.startswith("=="):
            section = line.split("=")[-1].strip()
            continue
        if section != "warmup2x":
            continue
        m = re.match(r"quiet-2026-12-04(\w) (long-[ab]) .*\(([-+\d.]+) pp\)(.*)", line)
        if not m:
            continue
        e = {"shed": float(m.group(3))}
        for k, v in re.findall(r"(m\d) ([-+\d.]+)%", m.group(4)):
            e[k] = float(v)
        out.setdefault(m.group(1), {})[m.group(2)[-1]] = e
    for run in "tuv":
        d = f"quiet-2026-12-04{run}"
        for ab in "ab":
            e = {}
            for c in load(d, ab)["comparison"]:
                if c["figure"] == "shed_fraction":
                    e["shed"] = c["error"]
                elif c["figure"] == "surge_to_in_service_s":
                    e["surge"] = c["error"]
                elif c["figure"] == "p95_ttfab_ms" and c["minute"] in (1, 2, 3):
                    e[f"m{c['minute']}"] = c["error"]
            out.setdefault(run, {})[ab] = e
    return out


def main():
    rows = []
    for d in sorted(glob.glob("quiet-2026-12-0[234]*")):  # runs d-v, as recorded (w came after)
        try:
            a, b = load(d, "a"), load(d, "b")
        except FileNotFoundError:
            continue
        assert a["seed"] == b["seed"] and a["measured"]["arrivals"] == b["measured"]["arrivals"], d
        fa, fb = figures(a), figures(b)
        diff = {"shed": fa["shed"] - fb["shed"]}
        for k in ("surge", "m1", "m2", "m3"):
            diff[k] = 100.0 * (fa[k] / fb[k] - 1)
        rows.append((d[-1], fa, fb, diff))

    print("Live a against live b, the same trace and seed, fresh deployments minutes apart")
    print("run  shed a/b (pp)        surge a/b s (%)       minute 1 p95 ms (%)   minute 2             minute 3")
    for run, fa, fb, df in rows:
        cells = [f"{fa['shed']:5.1f}/{fb['shed']:5.1f} {df['shed']:+5.1f}",
                 f"{fa['surge']:5.1f}/{fb['surge']:5.1f} {df['surge']:+6.1f}"]
        for k in ("m1", "m2", "m3"):
            cells.append(f"{fa[k]:4.0f}/{fb[k]:4.0f} {df[k]:+6.1f}")
        print(f"{run:4} " + "   ".join(cells))

    def within(k, v):
        return abs(v) <= (TOL_PP if k == "shed" else TOL_PCT)

    for label, sel in (("d-v (19 runs)", None), ("o-v (8 runs, the current model's)", "opqrstuv")):
        rs = [r for r in rows if sel is None or r[0] in sel]
        print(f"\n{label}: live a against live b within issue 14's tolerance")
        for k in ("shed", "surge", "m1", "m2", "m3"):
            n = sum(within(k, r[3][k]) for r in rs)
            print(f"  {k:6} {n:2} of {len(rs)}", end="")
            # a - b in pp for shed, ln(a/b) otherwise; one run's spread about its expectation is
            # their standard deviation over sqrt 2, and a model that predicted each run's
            # expectation exactly would be within with probability P(|Z| < tolerance / spread)
            # (normal), or, without the normal, as often as |a - b| / sqrt 2 is within
            if k == "shed":
                ds, tol = [r[3][k] for r in rs], TOL_PP
            else:
                ds, tol = [math.log(r[1][k] / r[2][k]) for r in rs], LN
            s1 = st.pstdev(ds + [-x for x in ds]) / math.sqrt(2)
            p = math.erf(tol / s1 / math.sqrt(2))
            emp = sum(abs(x) / math.sqrt(2) <= tol for x in ds)
            spread = f"{s1:4.2f} pp" if k == "shed" else f"{100 * (math.exp(s1) - 1):5.1f} %"
            diff = "|a-b|" if k == "shed" else "|ln a/b|"
            print(f"   one run's spread {spread};"
                  f" a perfect model within {100 * p:3.0f} % of the time (normal),"
                  f" {emp} of {len(rs)} ({diff}/sqrt2)", end="")
            print()

    me = model_errors()
    print("\nThe model against the same live replays, o-v (o-s re-predicted offline, t-v live)")
    print("run replay  shed pp  surge %  m1 %    m2 %    m3 %")
    counts = {k: [0, 0] for k in ("shed", "surge", "m1", "m2", "m3")}
    for run in "opqrstuv":
        for ab in "ab":
            e = me[run][ab]
            print(f"{run}   {ab}      " + "  ".join(
                f"{e[k]:+6.1f}" if k in e else "     -" for k in ("shed", "surge", "m1", "m2", "m3")))
            for k, v in e.items():
                counts[k][0] += within(k, v)
                counts[k][1] += 1
    for k, (n, t) in counts.items():
        print(f"  {k:6} within {n:2} of {t}")
    neg = sum(1 for run in "opqrstuv" for ab in "ab" for k in ("m2", "m3") if me[run][ab][k] < 0)
    print(f"  quiet minutes 2 and 3 predicted low: {neg} of 32")
    per_run = {run: st.mean(me[run][ab][k] for ab in "ab" for k in ("m2", "m3")) for run in "opqrstuv"}
    print("  minutes 2 and 3, mean error per run (both replays): "
          + ", ".join(f"{r} {v:+.1f}" for r, v in per_run.items())
          + f"; mean {st.mean(per_run.values()):+.1f} %, sd {st.stdev(per_run.values()):.1f}")
    # the same for live a against live b: no side is favoured, so its mean is the check
    la = {r[0]: st.mean((r[3]["m2"], r[3]["m3"])) for r in rows if r[0] in "opqrstuv"}
    print("  live a against b, minutes 2 and 3 mean per run: "
          + ", ".join(f"{r} {v:+.1f}" for r, v in la.items()))


main()
