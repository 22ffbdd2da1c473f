package dev.speechscale.capacity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether the bisection rungs that decided Q_max ran at the throughput of the coarse rungs that
 * bracket them. Q_max sits between the last coarse rung that met the SLO (N_low) and the first that
 * breached it (N_high); the bisection measures the rungs in between a minute later. Closed-loop
 * throughput rises with N and then stays flat, so a rung between N_low and N_high cannot serve
 * faster than both of them, nor slower than both, unless the machine changed while it ran: then its
 * p95, and Q_max with it, measured the machine. (The 2026-11-30 11:40 quickstart: N=8 and N=16 at
 * 15.4 and 15.2 req/s, bisection rungs 12–14 at 12.4–14.0, Q_max 12; a quickstart of 2026-12-02:
 * 14.2 and 14.8 around 16.0–17.2, Q_max 15 against 12–13 in the runs beside it.) The reference
 * rung's re-measurement ({@link RungDrift}) catches a machine that drifted away for good; this
 * catches one that changed only while the bisection ran.
 *
 * @param runIndex the ladder pass
 * @param lowConcurrency N_low, the last coarse rung that met the SLO
 * @param lowRps its throughput
 * @param highConcurrency N_high, the first coarse rung that breached it
 * @param highRps its throughput
 * @param inside the usable bisection rungs strictly between, as {@code N@req/s}
 * @param insideMeanRps their mean throughput
 * @param tolerancePct how far outside the bracket's throughputs the mean may lie, in percent
 */
public record BracketDrift(
    int runIndex,
    int lowConcurrency,
    double lowRps,
    int highConcurrency,
    double highRps,
    List<String> inside,
    double insideMeanRps,
    double tolerancePct) {

  public BracketDrift {
    inside = List.copyOf(inside);
  }

  /**
   * One check per ladder pass that has a coarse bracket with usable throughput at both ends and
   * usable bisection rungs inside it; none otherwise. A pass's coarse rungs are its first steps, in
   * step order, while N rises; the rest are its bisection.
   */
  public static List<BracketDrift> of(Ladder ladder, double tolerancePct) {
    List<BracketDrift> out = new ArrayList<>();
    for (int run = 0; run < ladder.runs(); run++) {
      int r = run;
      List<Rung> steps =
          ladder.rungs().stream()
              .filter(x -> x.runIndex() == r)
              .sorted(Comparator.comparingInt(Rung::stepIndex))
              .toList();
      check(r, steps, ladder.sloMs(), tolerancePct).ifPresent(out::add);
    }
    return out;
  }

  private static Optional<BracketDrift> check(
      int run, List<Rung> steps, double sloMs, double tolerancePct) {
    int coarseEnd = 0;
    while (coarseEnd < steps.size()
        && (coarseEnd == 0
            || steps.get(coarseEnd).concurrency() > steps.get(coarseEnd - 1).concurrency())) {
      coarseEnd++;
    }
    List<Rung> coarse = steps.subList(0, coarseEnd);
    Optional<Rung> high = coarse.stream().filter(x -> x.breachesSlo(sloMs)).findFirst();
    if (high.isEmpty()) {
      return Optional.empty();
    }
    int highN = high.get().concurrency();
    Optional<Rung> low =
        coarse.stream()
            .filter(x -> x.meetsSlo(sloMs) && x.concurrency() < highN)
            .max(Comparator.comparingInt(Rung::concurrency));
    if (low.isEmpty() || low.get().achievedRps() == null || high.get().achievedRps() == null) {
      return Optional.empty();
    }
    int lowN = low.get().concurrency();
    List<Rung> inside =
        steps.subList(coarseEnd, steps.size()).stream()
            .filter(x ->
                x.usable()
                    && x.achievedRps() != null
                    && x.concurrency() > lowN
                    && x.concurrency() < highN)
            .toList();
    if (inside.isEmpty()) {
      return Optional.empty();
    }
    double mean = inside.stream().mapToDouble(Rung::achievedRps).average().orElseThrow();
    return Optional.of(
        new BracketDrift(
            run,
            lowN,
            low.get().achievedRps(),
            highN,
            high.get().achievedRps(),
            inside.stream()
                .map(x -> String.format(Locale.ROOT, "%d@%.1f", x.concurrency(), x.achievedRps()))
                .toList(),
            mean,
            tolerancePct));
  }

  /**
   * How far the bisection rungs' mean lies outside the bracket's throughputs, in percent of the
   * nearer end (positive: faster than both ends; negative: slower than both; 0 within them).
   */
  public double deviationPct() {
    double hi = Math.max(lowRps, highRps);
    double lo = Math.min(lowRps, highRps);
    if (insideMeanRps > hi) {
      return 100 * (insideMeanRps - hi) / hi;
    }
    if (insideMeanRps < lo) {
      return 100 * (insideMeanRps - lo) / lo;
    }
    return 0;
  }

  /** Whether the deviation exceeds the tolerance. */
  public boolean beyond() {
    return Math.abs(deviationPct()) > tolerancePct;
  }

  /** One line for people: the bracket, the rungs inside and the deviation. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "run %d's bisection rungs (N req/s: %s; mean %.1f) ran %.1f %% %s than the coarse rungs"
            + " around them (N=%d %.1f and N=%d %.1f req/s; tolerance %s %%)",
        runIndex + 1,
        String.join(", ", inside),
        insideMeanRps,
        Math.abs(deviationPct()),
        deviationPct() > 0 ? "faster" : "slower",
        lowConcurrency,
        lowRps,
        highConcurrency,
        highRps,
        tolerancePct == Math.rint(tolerancePct)
            ? Long.toString((long) tolerancePct)
            : Double.toString(tolerancePct));
  }
}
