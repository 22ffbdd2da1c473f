package dev.speechscale.loadgen;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a ladder would cost, without sending anything: wall clock and request counts from an assumed
 * service time S and service parallelism P.
 *
 * <p>The model is a closed loop of N workers against P service slots, each request taking S (its
 * first audio after F): throughput X(N) = min(N, P)/S, TTFAB(N) = F + max(0, N/P − 1)·S. A serial
 * server (P = 1) completes 1/S requests per second at <em>every</em> N — the published estimator's
 * N·hold/S counts a serial engine as serving N requests in parallel and overstates a rung at N=50
 * fifty-fold. A rung sends N + X·hold requests (one per completion, plus the N in flight at the
 * start), measures X·window of them, and lasts hold + the drain of its last N requests (⌈N/P⌉·S) +
 * the settle time before it. A rung whose {@link StabilityRule} asks for K windows is held for its
 * {@link LadderSpec#minimumHold()} as predicted (the model's server is steady, so its first K
 * windows agree: hold + (K − 1) × window, with K windows measured), and for its {@link
 * LadderSpec#maximumHold()} in the worst case ({@link Estimate#worstCaseWallClock()}: every rung
 * held to the bound). Bisection is simulated with the predicted TTFAB, exactly as {@link
 * LadderRunner} would walk it, and so are the drift re-checks of the reference rung (the highest
 * coarse rung predicted to meet the SLO): one at the end of each run, and with {@link
 * DriftRecheck.Mode#BISECTION} one between each two bisection steps.
 */
public final class DryRun {
  private DryRun() {}

  /**
   * The service the estimate assumes.
   *
   * @param serviceTime S, the full response time of one uncontended request
   * @param firstAudio F, its time to first audio byte (at most S)
   * @param parallelism P, requests the server really serves at once (1 for a serial engine)
   */
  public record ServiceAssumption(Duration serviceTime, Duration firstAudio, int parallelism) {
    public ServiceAssumption {
      Objects.requireNonNull(serviceTime, "serviceTime");
      Objects.requireNonNull(firstAudio, "firstAudio");
      if (!serviceTime.isPositive()) {
        throw new LoadgenException("service time (" + serviceTime + ") must be positive");
      }
      if (firstAudio.isNegative() || firstAudio.compareTo(serviceTime) > 0) {
        throw new LoadgenException(
            "first audio ("
                + firstAudio
                + ") must be between 0 and the service time ("
                + serviceTime
                + ")");
      }
      if (parallelism < 1) {
        throw new LoadgenException(
            "service parallelism (" + parallelism + ") must be at least 1 (1 = a serial server)");
      }
    }

    /** A serial server whose first audio comes at the service time. */
    public static ServiceAssumption serial(Duration serviceTime) {
      return new ServiceAssumption(serviceTime, serviceTime, 1);
    }

    double throughputPerSecond(int n) {
      return Math.min(n, parallelism) / seconds(serviceTime);
    }

    double ttfabMs(int n) {
      double waitSlots = Math.max(0, (double) n / parallelism - 1);
      return (seconds(firstAudio) + waitSlots * seconds(serviceTime)) * 1000;
    }

    Duration drain(int n) {
      long rounds = ((long) n + parallelism - 1) / parallelism;
      return serviceTime.multipliedBy(rounds);
    }
  }

  /**
   * One rung the ladder would run.
   *
   * @param runIndex the run
   * @param stepIndex position in the run
   * @param phase coarse, bisection or a drift re-check
   * @param concurrency N
   * @param throughputPerSecond X(N)
   * @param requests requests it would send
   * @param windowRequests requests its window would measure
   * @param predictedTtfabMs TTFAB(N) under the model
   * @param wallTime settle + hold + drain, the hold its {@link LadderSpec#minimumHold()}
   * @param worstWallTime the same with the hold at its {@link LadderSpec#maximumHold()}
   */
  public record Row(
      int runIndex,
      int stepIndex,
      RungReport.Phase phase,
      int concurrency,
      double throughputPerSecond,
      long requests,
      long windowRequests,
      double predictedTtfabMs,
      Duration wallTime,
      Duration worstWallTime) {}

  /**
   * The estimate.
   *
   * @param rows every rung, in order
   * @param warmup the warm-up before the first rung (its requests are sent but not measured), or
   *     null when there is none
   * @param wallClock the ladder's total wall time, warm-up included
   * @param worstCaseWallClock the same with every rung held to its max hold (equal to {@code
   *     wallClock} with one window per rung)
   * @param requests requests it would send, warm-up included
   * @param predictedQmax the highest N with predicted TTFAB within the SLO (0 when even N=1 misses)
   * @param model the assumption, in words
   */
  public record Estimate(
      List<Row> rows,
      @Nullable Row warmup,
      Duration wallClock,
      Duration worstCaseWallClock,
      long requests,
      int predictedQmax,
      String model) {
    public Estimate {
      rows = List.copyOf(rows);
    }
  }

  public static Estimate estimate(LadderSpec spec, ServiceAssumption s) {
    List<Row> rows = new ArrayList<>();
    for (int run = 0; run < spec.runs(); run++) {
      int step = 0;
      int pass = 0;
      int breach = Integer.MAX_VALUE;
      for (int n : spec.rungs()) {
        rows.add(row(spec, s, run, step++, RungReport.Phase.COARSE, n, rows.isEmpty()));
        if (s.ttfabMs(n) <= spec.sloMs()) {
          pass = Math.max(pass, n);
        } else if (n > pass) {
          breach = Math.min(breach, n);
          if (spec.stopAfterBreach()) {
            break;
          }
        }
      }
      int reference = pass;
      boolean between = spec.drift().mode() == DriftRecheck.Mode.BISECTION;
      if (spec.refine() && pass > 0 && breach != Integer.MAX_VALUE) {
        int lo = pass;
        int hi = breach;
        while (hi - lo > 1) {
          int mid = lo + (hi - lo) / 2;
          rows.add(row(spec, s, run, step++, RungReport.Phase.BISECT, mid, false));
          if (s.ttfabMs(mid) <= spec.sloMs()) {
            lo = mid;
          } else {
            hi = mid;
          }
          if (between && hi - lo > 1) {
            rows.add(row(spec, s, run, step++, RungReport.Phase.RECHECK, reference, false));
          }
        }
      }
      if (spec.drift().enabled() && reference > 0) {
        rows.add(row(spec, s, run, step++, RungReport.Phase.RECHECK, reference, false));
      }
    }
    Row warmup = null;
    if (spec.warmup().isPositive()) {
      int n = spec.warmupConcurrency();
      double x = s.throughputPerSecond(n);
      warmup =
          new Row(
              0,
              -1,
              RungReport.Phase.COARSE,
              n,
              x,
              Math.round(n + x * seconds(spec.warmup())),
              0,
              s.ttfabMs(n),
              spec.warmup().plus(s.drain(n)),
              spec.warmup().plus(s.drain(n)));
    }
    Duration wall = rows.stream().map(Row::wallTime).reduce(Duration.ZERO, Duration::plus);
    Duration worst = rows.stream().map(Row::worstWallTime).reduce(Duration.ZERO, Duration::plus);
    long requests = rows.stream().mapToLong(Row::requests).sum();
    if (warmup != null) {
      wall = wall.plus(warmup.wallTime());
      worst = worst.plus(warmup.wallTime());
      requests += warmup.requests();
    }
    double sMs = seconds(s.serviceTime()) * 1000;
    double fMs = seconds(s.firstAudio()) * 1000;
    int qmax =
        fMs > spec.sloMs()
            ? 0
            : (int) Math.floor(s.parallelism() * (1 + (spec.sloMs() - fMs) / sMs) + 1e-9);
    String model =
        String.format(
            Locale.ROOT,
            "closed loop against %d service slot(s) of S=%.1f ms (first audio F=%.1f ms):"
                + " throughput min(N, %d)/S = at most %.2f req/s, TTFAB = F + max(0, N/%d - 1)*S",
            s.parallelism(),
            sMs,
            fMs,
            s.parallelism(),
            s.parallelism() * 1000 / sMs,
            s.parallelism());
    return new Estimate(rows, warmup, wall, worst, requests, qmax, model);
  }

  private static Row row(
      LadderSpec spec,
      ServiceAssumption s,
      int run,
      int step,
      RungReport.Phase phase,
      int n,
      boolean first) {
    double x = s.throughputPerSecond(n);
    Duration tail = s.drain(n).plus(first ? Duration.ZERO : spec.settle());
    return new Row(
        run,
        step,
        phase,
        n,
        x,
        Math.round(n + x * seconds(spec.minimumHold())),
        Math.round(x * seconds(spec.window()) * spec.stability().windows()),
        s.ttfabMs(n),
        spec.minimumHold().plus(tail),
        spec.maximumHold().plus(tail));
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }
}
