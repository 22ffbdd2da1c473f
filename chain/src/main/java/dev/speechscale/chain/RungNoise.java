package dev.speechscale.chain;

import dev.speechscale.artifacts.EnforcedCpu;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.RungCheck;
import dev.speechscale.capacity.Percentiles;
import dev.speechscale.loadgen.LadderListener;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.RungReport;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

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
  private static final Path PROC_STAT = Path.of("/proc/stat");

  private record Done(int run, int step, Instant at, double ttfabMs) {}

  /** One /proc/stat and process-CPU reading. */
  record CpuSample(
      long busyTicks, long totalTicks, long stealTicks, long processCpuNanos, long wallNanos) {}

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
    startOf.put(key(p.runIndex(), p.stepIndex()), sample());
  }

  @Override
  public synchronized void rungFinished(Progress p, RungReport r) {
    String k = key(r.runIndex(), r.stepIndex());
    CpuSample start = startOf.get(k);
    if (start != null) {
      cpuOf.put(k, new CpuSample[] {start, sample()});
    }
    windowOf.put(k, new Instant[] {r.windowStart(), r.windowEnd()});
  }

  /** One check per step that was watched, in the steps' order. */
  synchronized List<RungCheck> checks(List<QmaxStep> steps, EnforcedCpu limit) {
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
      CpuSample[] cpu,
      int cpus,
      Double limitCpus) {
    Instant mid = from.plus(java.time.Duration.between(from, to).dividedBy(2));
    double halfS = java.time.Duration.between(from, to).toMillis() / 2000.0;
    List<Double> first = new ArrayList<>();
    List<Double> second = new ArrayList<>();
    for (Done d : done) {
      if (d.run() != run || d.step() != step || d.at().isBefore(from) || d.at().isAfter(to)) {
        continue;
      }
      (d.at().isBefore(mid) ? first : second).add(d.ttfabMs());
    }
    double[] all =
        java.util.stream.Stream.concat(first.stream(), second.stream())
            .mapToDouble(Double::doubleValue)
            .sorted()
            .toArray();
    Double r1 = halfS > 0 ? first.size() / halfS : null;
    Double r2 = halfS > 0 ? second.size() / halfS : null;
    Double p1 = p95(first);
    Double p2 = p95(second);
    Boolean stable =
        r1 == null || p1 == null || p2 == null
            ? null
            : within(r1, r2, RungCheck.THROUGHPUT_TOLERANCE)
                && within(p1, p2, RungCheck.P95_TOLERANCE);
    double[] ci = Percentiles95.interval(all);
    Double steal = null;
    Double busy = null;
    Double gen = null;
    Double other = null;
    if (cpu != null) {
      CpuSample a = cpu[0];
      CpuSample b = cpu[1];
      long total = b.totalTicks() - a.totalTicks();
      double wallS = (b.wallNanos() - a.wallNanos()) / 1e9;
      if (total > 0 && wallS > 0) {
        steal = (b.stealTicks() - a.stealTicks()) / (double) total;
        busy = cpus * (b.busyTicks() - a.busyTicks()) / (double) total;
        gen = (b.processCpuNanos() - a.processCpuNanos()) / 1e9 / wallS;
        other = Math.max(0, busy - gen - (limitCpus == null ? 1.0 : limitCpus));
      }
    }
    boolean machineBusy =
        (other != null && other > RungCheck.BUSY_OTHER_CPUS)
            || (steal != null && steal > RungCheck.BUSY_STEAL);
    boolean generatorBound = gen != null && gen > RungCheck.GENERATOR_BOUND_SHARE * cpus;
    List<String> why = new ArrayList<>();
    if (Boolean.FALSE.equals(stable)) {
      why.add(
          String.format(
              Locale.ROOT,
              "unstable: the window's halves gave %.1f and %.1f req/s, p95 %.0f and %.0f ms",
              r1,
              r2,
              p1,
              p2));
    }
    if (machineBusy) {
      why.add(
          String.format(
              Locale.ROOT,
              "machine busy: %.2f CPUs of other work beyond the load generator and the"
                  + " instance's limit, steal %.1f %%",
              other,
              100 * (steal == null ? 0 : steal)));
    }
    if (generatorBound) {
      why.add(
          String.format(
              Locale.ROOT,
              "load generator used %.2f of %d CPUs: it may have limited the rung",
              gen,
              cpus));
    }
    return new RungCheck(
        run,
        step,
        n,
        (long) all.length,
        r1,
        r2,
        p1,
        p2,
        stable,
        all.length == 0 ? null : Percentiles95.nearestRank(all),
        ci == null ? null : ci[0],
        ci == null ? null : ci[1],
        steal,
        busy,
        gen,
        limitCpus,
        other,
        cpu == null ? null : machineBusy,
        cpu == null ? null : generatorBound,
        why.isEmpty() ? null : String.join("; ", why));
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

  private static Double p95(List<Double> values) {
    if (values.isEmpty()) {
      return null;
    }
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return Percentiles95.nearestRank(v);
  }

  private static String key(int run, int step) {
    return run + "/" + step;
  }

  /** The machine's CPU counters and this process's CPU time now. */
  static CpuSample sample() {
    long busy = 0;
    long total = 0;
    long steal = 0;
    try {
      for (String line : Files.readAllLines(PROC_STAT)) {
        if (line.startsWith("cpu ")) {
          long[] f =
              Arrays.stream(line.substring(4).trim().split("\\s+"))
                  .mapToLong(Long::parseLong)
                  .toArray();
          // user nice system idle iowait irq softirq steal guest guest_nice
          for (int i = 0; i < Math.min(8, f.length); i++) {
            total += f[i];
          }
          busy = total - f[3] - (f.length > 4 ? f[4] : 0);
          steal = f.length > 7 ? f[7] : 0;
          break;
        }
      }
    } catch (IOException | RuntimeException notLinux) {
      // no /proc/stat: the machine-wide figures stay empty
    }
    long processCpu = 0;
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      processCpu = os.getProcessCpuTime();
    }
    return new CpuSample(busy, total, steal, processCpu, System.nanoTime());
  }

  /** The p95 and its distribution-free 95 % interval from order statistics. */
  static final class Percentiles95 {
    private static final double Q = 0.95;
    private static final double Z = 1.959964;

    private Percentiles95() {}

    /** Nearest rank: the ⌈0.95 n⌉-th smallest of sorted {@code v}. */
    static double nearestRank(double[] v) {
      return Percentiles.nearestRank(v, Q);
    }

    /**
     * The ranks l &lt; u with P(X(l) ≤ p95 ≤ X(u)) ≈ 95 % for n samples (binomial, normal
     * approximation: n q ± 1.96 √(n q (1−q))), as values of sorted {@code v}; {@code null} when
     * there are too few samples for the upper rank to exist (n q (1−q) &lt; 1 or u &gt; n).
     */
    static double[] interval(double[] v) {
      int n = v.length;
      double sd = Math.sqrt(n * Q * (1 - Q));
      if (n == 0 || sd < 1) {
        return null;
      }
      int l = (int) Math.floor(n * Q - Z * sd);
      int u = (int) Math.ceil(n * Q + Z * sd);
      if (l < 1 || u > n) {
        return null;
      }
      return new double[] {v[l - 1], v[u - 1]};
    }
  }
}
