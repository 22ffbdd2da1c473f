package dev.speechscale.capacity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * What a measured ladder says, recomputed from its steps alone: Q_max per run and overall,
 * bracketing, refinement, the throughput curve and the units ratios.
 *
 * <p>Q_max is the highest rung that meets the SLO, the minimum across runs. It is bracketed only
 * when a <em>usable</em> rung above it breached the SLO — the published tool also counts excluded
 * rungs, which turns "we could not measure 60" into "60 breaches". It is refined when that
 * breaching rung is exactly Q_max + 1 (the bisection closed the gap).
 */
public final class Ladder {
  private final List<Rung> rungs;
  private final double sloMs;
  private final Map<Integer, Integer> qMaxPerRun = new TreeMap<>();
  private final int qMax;
  private final boolean bracketed;
  private final boolean refined;

  private Ladder(List<Rung> rungs, double sloMs) {
    this.rungs = List.copyOf(rungs);
    this.sloMs = sloMs;
    for (Rung rung : this.rungs) {
      qMaxPerRun.merge(rung.runIndex(), 0, Math::max);
      if (rung.meetsSlo(sloMs)) {
        qMaxPerRun.merge(rung.runIndex(), rung.concurrency(), Math::max);
      }
    }
    this.qMax = qMaxPerRun.values().stream().mapToInt(Integer::intValue).min().orElse(0);
    OptionalDouble firstBreach =
        this.rungs.stream()
            .filter(r -> r.breachesSlo(sloMs) && r.concurrency() > qMax)
            .mapToDouble(Rung::concurrency)
            .min();
    this.bracketed = qMax > 0 && firstBreach.isPresent();
    this.refined = bracketed && firstBreach.getAsDouble() == qMax + 1;
  }

  /**
   * Analyses the steps against the SLO.
   *
   * @throws CapacityException when there are no steps or the SLO is not positive
   */
  public static Ladder of(List<Rung> rungs, double sloMs) {
    if (rungs.isEmpty()) {
      throw new CapacityException("the ladder has no steps; a qmax artifact needs at least one");
    }
    if (!(sloMs > 0)) {
      throw new CapacityException("SLO (" + sloMs + " ms) must be positive");
    }
    return new Ladder(rungs, sloMs);
  }

  public List<Rung> rungs() {
    return rungs;
  }

  public double sloMs() {
    return sloMs;
  }

  /** Highest passing rung, minimum across runs; 0 when no rung met the SLO. */
  public int qMax() {
    return qMax;
  }

  /** Q_max of each run, in run order. */
  public List<Integer> qMaxPerRun() {
    return List.copyOf(qMaxPerRun.values());
  }

  public int runs() {
    return qMaxPerRun.size();
  }

  public boolean bracketed() {
    return bracketed;
  }

  public boolean refined() {
    return refined;
  }

  /** Relative spread of Q_max across runs, (max − min)/max; 0 for one run. */
  public double qMaxSpread() {
    int max = qMaxPerRun.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    int min = qMaxPerRun.values().stream().mapToInt(Integer::intValue).min().orElse(0);
    return max == 0 ? 0 : (double) (max - min) / max;
  }

  public List<Rung> unusable() {
    return rungs.stream().filter(r -> !r.usable()).toList();
  }

  /** The lowest usable rung: where the uncontended service time is read. */
  public Optional<Rung> lowestUsable() {
    return rungs.stream()
        .filter(Rung::usable)
        .min(Comparator.comparingInt(Rung::concurrency).thenComparingInt(Rung::runIndex));
  }

  /**
   * The rungs the uncontended service time is read at. A closed loop of one worker never queues a
   * request behind another, so the N=1 rungs hold the uncontended service time whatever else their
   * window showed: the usable ones when there are any, else every N=1 rung that completed requests
   * with latency recorded (a window judged not settled still timed requests that never waited; the
   * next usable rung, N=2, times two requests sharing the engine, twice S on a serial engine: five
   * quickstarts of 2026-12-02 read S_mean 129-136 ms there against 64-68 ms at their own N=1).
   * Without an N=1 rung, the lowest usable rung.
   */
  public List<Rung> serviceRungs() {
    List<Rung> one =
        rungs.stream()
            .filter(r -> r.concurrency() == 1 && r.ok() > 0)
            .filter(r -> r.latencyMeanMs() != null && r.latencyP95Ms() != null)
            .toList();
    List<Rung> usableOne = one.stream().filter(Rung::usable).toList();
    if (!usableOne.isEmpty()) {
      return usableOne;
    }
    if (!one.isEmpty()) {
      return one;
    }
    return atLowestUsable()
        .filter(r -> r.latencyMeanMs() != null && r.latencyP95Ms() != null)
        .toList();
  }

  /**
   * The uncontended service time at {@link #serviceRungs()}, when the steps carry latency: the mean
   * of the runs' means and the worst of their p95s (percentiles are never averaged).
   */
  public Optional<ServiceTime> serviceTime() {
    List<Rung> at = serviceRungs();
    if (at.isEmpty()) {
      return Optional.empty();
    }
    int n = at.getFirst().concurrency();
    double mean =
        at.stream()
            .mapToDouble(r -> Objects.requireNonNull(r.latencyMeanMs()))
            .average()
            .orElseThrow();
    double p95 =
        at.stream().mapToDouble(r -> Objects.requireNonNull(r.latencyP95Ms())).max().orElseThrow();
    double ttfab = at.stream().mapToDouble(Rung::ttfabP95Ms).max().orElseThrow();
    List<String> unusable =
        at.stream()
            .filter(r -> !r.usable())
            .map(r -> "run " + r.runIndex() + ": " + r.unusableReason())
            .toList();
    return Optional.of(
        new ServiceTime(
            mean / 1000.0,
            p95 / 1000.0,
            ttfab,
            n,
            unusable.isEmpty() ? null : String.join("; ", unusable)));
  }

  /** p95 TTFAB at the lowest usable rung, the basis of the first-chunk latency alarm. */
  public OptionalDouble lowestRungTtfabP95Ms() {
    return atLowestUsable().mapToDouble(Rung::ttfabP95Ms).max();
  }

  /** Every run's usable rung at the lowest usable concurrency; none when no rung is usable. */
  private Stream<Rung> atLowestUsable() {
    int n = lowestUsable().map(Rung::concurrency).orElse(0); // no usable rung: none match
    return rungs.stream().filter(r -> r.usable() && r.concurrency() == n);
  }

  /**
   * The measured throughput curve: usable rungs with a throughput, merged across runs by nominal
   * concurrency (means of held concurrency and of throughput), sorted by held concurrency.
   */
  public ThroughputCurve throughputCurve() {
    Map<Integer, List<Rung>> byRung = new TreeMap<>();
    for (Rung r : rungs) {
      if (r.usable() && r.achievedRps() != null) {
        byRung.computeIfAbsent(r.concurrency(), k -> new ArrayList<>()).add(r);
      }
    }
    List<ThroughputCurve.Point> points = new ArrayList<>();
    for (List<Rung> group : byRung.values()) {
      double x = group.stream().mapToDouble(Rung::heldConcurrency).average().orElseThrow();
      double y = group.stream().mapToDouble(Rung::achievedRps).average().orElseThrow();
      points.add(new ThroughputCurve.Point(x, y));
    }
    return new ThroughputCurve(points);
  }

  /**
   * The ratio of a server statistic to the client's mean in-flight at the measured rung nearest
   * {@code threshold} (ties go to the higher rung), averaged across runs at that rung.
   */
  public Optional<UnitsRatio> ratioNear(double threshold, UnitsRatio.Statistic statistic) {
    List<Rung> measured =
        rungs.stream()
            .filter(Rung::usable)
            .filter(r -> r.concurrencyMean() != null && r.concurrencyMean() > 0)
            .filter(r -> statistic.serverValue(r) != null)
            .toList();
    Optional<Rung> nearest =
        measured.stream()
            .min(
                Comparator.comparingDouble((Rung r) -> Math.abs(r.concurrency() - threshold))
                    .thenComparing(Comparator.comparingInt(Rung::concurrency).reversed()));
    if (nearest.isEmpty()) {
      return Optional.empty();
    }
    int n = nearest.get().concurrency();
    double ratio =
        measured.stream()
            .filter(r -> r.concurrency() == n)
            .mapToDouble( // both present: filtered above
                r ->
                    java.util.Objects.requireNonNull(statistic.serverValue(r))
                        / java.util.Objects.requireNonNull(r.concurrencyMean()))
            .average()
            .orElseThrow();
    return Optional.of(new UnitsRatio(statistic, ratio, n));
  }

  /** Characters per ok request over the usable rungs that counted characters. */
  public OptionalDouble charsPerRequest() {
    long chars = 0;
    long ok = 0;
    for (Rung r : rungs) {
      if (r.usable() && r.chars() != null && r.ok() > 0) {
        chars += r.chars();
        ok += r.ok();
      }
    }
    return ok == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) chars / ok);
  }

  /**
   * Uncontended service time.
   *
   * @param meanSeconds S_mean
   * @param p95Seconds S_p95
   * @param ttfabP95Ms p95 time to first byte at the same rung
   * @param atConcurrency the rung it was read at
   * @param unusableWindow why the N=1 window it was read from was not usable, or {@code null} when
   *     it was (see {@link #serviceRungs()})
   */
  public record ServiceTime(
      double meanSeconds,
      double p95Seconds,
      double ttfabP95Ms,
      int atConcurrency,
      @Nullable String unusableWindow) {}
}
