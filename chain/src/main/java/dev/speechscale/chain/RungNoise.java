package dev.speechscale.chain;

import dev.speechscale.artifacts.EnforcedCpu;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.RungCheck;
import dev.speechscale.loadgen.LadderListener;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.RungReport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Watches a qmax ladder for what the endpoint did not cause: it keeps every request's completion
 * time and TTFAB, and samples the machine's CPU counters ({@code /proc/stat}: busy, idle, steal)
 * and this process's own CPU time at the start and end of each rung. From those it builds one
 * {@link RungCheck} per rung: first-half against second-half throughput and p95 over the rung's
 * measured window, the p95's 95 % order-statistic interval, steal, the load generator's CPU, and
 * the machine's busy CPUs beyond the generator and the instance's limit.
 *
 * <p>The CPU figures cover the whole hold of the rung (start to end), not only its window.
 */
final class RungNoise implements LadderListener, RequestListener {
  private record Done(int run, int step, Instant at, double ttfabMs) {}

  private final Clock clock;
  private final ConcurrentLinkedQueue<Done> done = new ConcurrentLinkedQueue<>();
  private final Map<String, CpuSample> startOf = new HashMap<>();
  private final Map<String, CpuSample[]> cpuOf = new HashMap<>();
  private final Map<String, Instant[]> windowOf = new HashMap<>();

  RungNoise(Clock clock) {
    this.clock = clock;
  }

  @Override
  public void completed(RequestEvent e) {
    if (e.ok() && e.firstAudioNanos() >= 0) {
      done.add(new Done(e.runIndex(), e.stepIndex(), clock.instant(), (e.ttfabNanos()) / 1e6));
    }
  }

  @Override
  public synchronized void rungStarted(Progress p) {
    startOf.put(key(p.runIndex(), p.stepIndex()), CpuSample.now());
  }

  @Override
  public synchronized void rungFinished(Progress p, RungReport r) {
    String k = key(r.runIndex(), r.stepIndex());
    CpuSample start = startOf.get(k);
    if (start != null) {
      cpuOf.put(k, new CpuSample[] {start, CpuSample.now()});
    }
    windowOf.put(k, new Instant[] {r.windowStart(), r.windowEnd()});
  }

  /** One check per step that was watched, in the steps' order. */
  synchronized List<RungCheck> checks(List<QmaxStep> steps, @Nullable EnforcedCpu limit) {
    int cpus = Runtime.getRuntime().availableProcessors();
    Double limitCpus = limit == null ? null : limit.enforcedCpus();
    List<RungCheck> out = new ArrayList<>();
    for (QmaxStep s : steps) {
      int run = s.runIndex() == null ? 0 : s.runIndex();
      int step = s.stepIndex() == null ? 0 : s.stepIndex();
      String k = key(run, step);
      Instant[] w = windowOf.get(k);
      if (w == null || w[0] == null || w[1] == null) {
        continue;
      }
      out.add(check(run, step, s.concurrency(), w[0], w[1], cpuOf.get(k), cpus, limitCpus));
    }
    return out;
  }

  private RungCheck check(
      int run,
      int step,
      int n,
      Instant from,
      Instant to,
      CpuSample @Nullable [] cpu,
      int cpus,
      @Nullable Double limitCpus) {
    Halves h = halves(run, step, from, to);
    double[] all = h.allMs();
    double[] ci = Percentiles95.interval(all);
    RungCpu c = cpu == null ? RungCpu.UNKNOWN : RungCpu.between(cpu[0], cpu[1], cpus, limitCpus);
    boolean machineBusy = c.machineBusy();
    boolean generatorBound = c.generatorBound(cpus);
    return new RungCheck(
        run,
        step,
        n,
        (long) all.length,
        h.firstPerSecond(),
        h.secondPerSecond(),
        h.firstP95Ms(),
        h.secondP95Ms(),
        h.stable(),
        all.length == 0 ? null : Percentiles95.nearestRank(all),
        ci == null ? null : ci[0],
        ci == null ? null : ci[1],
        c.stealShare(),
        c.busyCpus(),
        c.generatorCpus(),
        limitCpus,
        c.otherCpus(),
        cpu == null ? null : machineBusy,
        cpu == null ? null : generatorBound,
        why(h, c, cpus));
  }

  /**
   * The rung's measured window cut in two: each half's completions per second and p95 TTFAB ({@code
   * null} when the window is empty or a half saw nothing), and every TTFAB, sorted.
   */
  private record Halves(
      @Nullable Double firstPerSecond,
      @Nullable Double secondPerSecond,
      @Nullable Double firstP95Ms,
      @Nullable Double secondP95Ms,
      double[] allMs) {

    /** Both halves within {@link RungCheck}'s tolerances; {@code null} when one cannot say. */
    @Nullable Boolean stable() {
      return firstPerSecond == null
              || secondPerSecond == null
              || firstP95Ms == null
              || secondP95Ms == null
          ? null
          : within(firstPerSecond, secondPerSecond, RungCheck.THROUGHPUT_TOLERANCE)
              && within(firstP95Ms, secondP95Ms, RungCheck.P95_TOLERANCE);
    }
  }

  private Halves halves(int run, int step, Instant from, Instant to) {
    Instant mid = from.plus(Duration.between(from, to).dividedBy(2));
    double halfS = Duration.between(from, to).toMillis() / 2000.0;
    List<Double> first = new ArrayList<>();
    List<Double> second = new ArrayList<>();
    for (Done d : done) {
      if (d.run() != run || d.step() != step || d.at().isBefore(from) || d.at().isAfter(to)) {
        continue;
      }
      (d.at().isBefore(mid) ? first : second).add(d.ttfabMs());
    }
    double[] all =
        Stream.concat(first.stream(), second.stream())
            .mapToDouble(Double::doubleValue)
            .sorted()
            .toArray();
    return new Halves(
        halfS > 0 ? first.size() / halfS : null,
        halfS > 0 ? second.size() / halfS : null,
        p95(first),
        p95(second),
        all);
  }

  /** Why the rung may not be the endpoint's alone; {@code null} when nothing says so. */
  private static @Nullable String why(Halves h, RungCpu c, int cpus) {
    List<String> why = new ArrayList<>();
    if (Boolean.FALSE.equals(h.stable())) {
      why.add(
          String.format(
              Locale.ROOT,
              "unstable: the window's halves gave %.1f and %.1f req/s, p95 %.0f and %.0f ms",
              h.firstPerSecond(),
              h.secondPerSecond(),
              h.firstP95Ms(),
              h.secondP95Ms()));
    }
    if (c.machineBusy()) {
      why.add(
          String.format(
              Locale.ROOT,
              "machine busy: %.2f CPUs of other work beyond the load generator and the"
                  + " instance's limit, steal %.1f %%",
              c.otherCpus(),
              100 * (c.stealShare() == null ? 0 : c.stealShare())));
    }
    if (c.generatorBound(cpus)) {
      why.add(
          String.format(
              Locale.ROOT,
              "load generator used %.2f of %d CPUs: it may have limited the rung",
              c.generatorCpus(),
              cpus));
    }
    return why.isEmpty() ? null : String.join("; ", why);
  }

  /** {@code other} and this, both told of every rung. */
  LadderListener alongside(LadderListener other) {
    RungNoise self = this;
    return new LadderListener() {
      @Override
      public void rungStarted(Progress p) {
        self.rungStarted(p);
        other.rungStarted(p);
      }

      @Override
      public void rungFinished(Progress p, RungReport r) {
        self.rungFinished(p, r);
        other.rungFinished(p, r);
      }

      @Override
      public void note(String message) {
        other.note(message);
      }
    };
  }

  /** {@code other} and this, both told of every request. */
  RequestListener alongside(RequestListener other) {
    return RequestListener.both(this, other);
  }

  private static boolean within(double a, double b, double tolerance) {
    double mean = (a + b) / 2;
    return mean == 0 || Math.abs(a - b) / mean <= tolerance;
  }

  private static @Nullable Double p95(List<Double> values) {
    if (values.isEmpty()) {
      return null;
    }
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return Percentiles95.nearestRank(v);
  }

  private static String key(int run, int step) {
    return run + "/" + step;
  }
}
