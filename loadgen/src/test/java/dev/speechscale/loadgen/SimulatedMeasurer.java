package dev.speechscale.loadgen;

import dev.speechscale.artifacts.Histograms;
import dev.speechscale.artifacts.RungStability;
import dev.speechscale.platform.Invocation.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.IntPredicate;

/**
 * A simulated server for ladder logic: p95 TTFAB is a function of (run, N); chosen rungs can be
 * saturated or unsettled, and a drift re-check can find it slower. Records the rungs it was asked
 * for, in order ({@code run:N}, with an {@code r} suffix for a drift re-check). No network, no
 * clock.
 */
final class SimulatedMeasurer implements RungMeasurer {
  final List<String> asked = new ArrayList<>();
  private final BiFunction<Integer, Integer, Double> p95Ms;
  private IntPredicate saturated = n -> false;
  private IntPredicate unsettled = n -> false;
  private IntPredicate unstable = n -> false;
  private double unstableSpread;
  private double recheckSlowdown = 1;
  private java.util.function.IntToDoubleFunction slowdownByCall = call -> 1;
  private IntPredicate unstableCall = call -> false;
  private int calls;
  private Runnable onMeasure = () -> {};
  private boolean stopped;

  SimulatedMeasurer(BiFunction<Integer, Integer, Double> p95Ms) {
    this.p95Ms = p95Ms;
  }

  /** p95 = msPerRequest × N: a serial server. */
  static SimulatedMeasurer serial(double msPerRequest) {
    return new SimulatedMeasurer((run, n) -> msPerRequest * n);
  }

  SimulatedMeasurer saturatedWhen(IntPredicate p) {
    this.saturated = p;
    return this;
  }

  SimulatedMeasurer unsettledWhen(IntPredicate p) {
    this.unsettled = p;
    return this;
  }

  /**
   * Rungs held to the max hold without agreeing: three windows whose p95s are the rung's p95 times
   * (1 − spread), 1 and (1 + spread).
   */
  SimulatedMeasurer unstableWhen(IntPredicate p, double spread) {
    this.unstable = p;
    this.unstableSpread = spread;
    return this;
  }

  /**
   * A drifting machine: every drift re-check finds the server {@code factor} times slower (p95
   * times factor, completions divided by it).
   */
  SimulatedMeasurer slowerAtRecheck(double factor) {
    this.recheckSlowdown = factor;
    return this;
  }

  /**
   * A warming instance: the first {@code calls} measurements find the server {@code factor} times
   * slower than every later one (whatever their phase).
   */
  SimulatedMeasurer warmingFor(int calls, double factor) {
    this.slowdownByCall = call -> call < calls ? factor : 1;
    return this;
  }

  /** Measurements (counted from 0 in the order asked) held without their windows agreeing. */
  SimulatedMeasurer unstableAtCall(IntPredicate call) {
    this.unstableCall = call;
    return this;
  }

  SimulatedMeasurer onMeasure(Runnable r) {
    this.onMeasure = r;
    return this;
  }

  /** Warm-ups asked for, as "N for hold". */
  final List<String> warmups = new ArrayList<>();

  @Override
  public boolean warmUp(int concurrency, Duration hold) {
    onMeasure.run();
    if (stopped) {
      return false;
    }
    warmups.add(concurrency + " for " + hold);
    return true;
  }

  @Override
  public RungReport measure(
      LadderSpec spec, int runIndex, int stepIndex, int concurrency, RungReport.Phase phase) {
    onMeasure.run();
    if (stopped) {
      return null;
    }
    asked.add(runIndex + ":" + concurrency + (phase == RungReport.Phase.RECHECK ? "r" : ""));
    int call = calls++;
    double slowdown =
        (phase == RungReport.Phase.RECHECK ? recheckSlowdown : 1)
            * slowdownByCall.applyAsDouble(call);
    double p95 = p95Ms.apply(runIndex, concurrency) * slowdown;
    long completed = Math.round(100 / slowdown);
    long rejected = saturated.test(concurrency) ? 50 : 0;
    long ok = completed - rejected;
    WindowStats stats =
        new WindowStats(
            concurrency,
            0,
            spec.window().toNanos(),
            completed,
            ok,
            rejected,
            rejected > 0
                ? Map.of(Outcome.OK, ok, Outcome.REJECTED, rejected)
                : Map.of(Outcome.OK, ok),
            ok / (spec.window().toNanos() / 1e9),
            concurrency,
            p95 / 2,
            p95,
            p95 * 1.1,
            p95,
            p95 / 2,
            p95,
            p95 * 1.1,
            unsettled.test(concurrency) ? p95 : 0.0,
            ok * 10,
            Histograms.newMicros(),
            Histograms.newMicros(),
            null);
    RungStability stability =
        unstable.test(concurrency) || unstableCall.test(call)
            ? new RungStability(
                3,
                10,
                28,
                false,
                0.0,
                100 * unstableSpread,
                List.of(
                    new RungStability.Window(0, 5, 50, 10, p95 * (1 - unstableSpread), true),
                    new RungStability.Window(5, 10, 50, 10, p95, true),
                    new RungStability.Window(10, 15, 50, 10, p95 * (1 + unstableSpread), true)))
            : null;
    return new RungReport(
        runIndex,
        stepIndex,
        phase,
        concurrency,
        Instant.EPOCH,
        Instant.EPOCH.plus(spec.window()),
        stats,
        0,
        List.of(),
        null,
        RungVerdict.judge(stats, 0, List.of(), stability),
        spec.hold().plus(Duration.ofSeconds(1)),
        stability);
  }

  @Override
  public void stop() {
    stopped = true;
  }

  @Override
  public void close() {}
}
