package dev.speechscale.loadgen;

import dev.speechscale.artifacts.RungStability;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A rung's consecutive measurement windows judged by its {@link StabilityRule}: pure arithmetic
 * over the rung's request events, no clock.
 *
 * <p>Window {@code i} is {@code [start + hold − window + i × window, start + hold + i × window)}
 * where {@code start} is when the rung's workers started: the first is the hold's trailing window
 * (what a single-window rung measures), the others follow it with no gap. Only windows that ended
 * by {@code measuredUntil} count, and none after the first run of {@link StabilityRule#windows()}
 * windows that agree ({@link WindowAgreement}).
 *
 * <p><b>Which samples a rung reports</b>: the requests that ended inside its counted windows, taken
 * together as one window ({@link #counted}) — the agreeing windows when the rung was stable, else
 * the last {@link StabilityRule#windows()} windows measured.
 *
 * @param windows each window's statistics, in order
 * @param firstCounted index of the first counted window
 * @param lastCounted index of the last counted window
 * @param stable whether the counted windows agree within the rule (always true with one window)
 * @param agreement the counted windows' spreads
 */
record RungWindows(
    List<WindowStats> windows,
    int firstCounted,
    int lastCounted,
    boolean stable,
    WindowAgreement agreement) {

  RungWindows {
    windows = List.copyOf(windows);
  }

  /**
   * Judges the windows of a rung that started at {@code startNanos} and whose events up to {@code
   * measuredUntilNanos} are all in {@code events}.
   *
   * @throws LoadgenException when not even the first window ended by then
   */
  static RungWindows of(
      List<RequestEvent> events,
      int concurrency,
      long startNanos,
      long measuredUntilNanos,
      LadderSpec spec) {
    long window = spec.window().toNanos();
    long first = startNanos + spec.hold().toNanos() - window;
    int k = spec.stability().windows();
    List<WindowStats> stats = new ArrayList<>();
    List<WindowAgreement.Figures> figures = new ArrayList<>();
    for (long from = first; from + window <= measuredUntilNanos; from += window) {
      WindowStats w = WindowStats.compute(events, concurrency, from, from + window);
      stats.add(w);
      figures.add(new WindowAgreement.Figures(w.achievedRps(), w.ttfabP95Ms()));
      if (k == 1
          || stats.size() >= k
              && WindowAgreement.of(figures.subList(stats.size() - k, stats.size()))
                  .within(spec.stability().percent())) {
        break;
      }
    }
    if (stats.isEmpty()) {
      throw new LoadgenException(
          "no measurement window of N="
              + concurrency
              + " ended by "
              + (measuredUntilNanos - startNanos) / 1_000_000
              + " ms into the rung; the first ends at the hold ("
              + spec.hold()
              + ")");
    }
    int last = stats.size() - 1;
    int firstCounted = Math.max(0, last - k + 1);
    WindowAgreement agreement = WindowAgreement.of(figures.subList(firstCounted, last + 1));
    boolean stable =
        k == 1 || (last - firstCounted + 1 == k && agreement.within(spec.stability().percent()));
    return new RungWindows(stats, firstCounted, last, stable, agreement);
  }

  /** Whether the windows ended by {@code measuredUntilNanos} already hold an agreeing run. */
  static boolean settledBy(
      List<RequestEvent> events,
      int concurrency,
      long startNanos,
      long measuredUntilNanos,
      LadderSpec spec) {
    return of(events, concurrency, startNanos, measuredUntilNanos, spec).stable();
  }

  /** When the counted windows begin. */
  long countedStartNanos() {
    return windows.get(firstCounted).windowStartNanos();
  }

  /** When they end. */
  long countedEndNanos() {
    return windows.get(lastCounted).windowEndNanos();
  }

  /** The requests that ended inside the counted windows, as one window: the rung's figures. */
  WindowStats counted(List<RequestEvent> events, int concurrency) {
    return WindowStats.compute(events, concurrency, countedStartNanos(), countedEndNanos());
  }

  /** The artifact's record; window times relative to {@code startNanos}. */
  RungStability toArtifact(long startNanos, StabilityRule rule) {
    List<RungStability.Window> out = new ArrayList<>();
    for (int i = 0; i < windows.size(); i++) {
      WindowStats w = windows.get(i);
      out.add(
          new RungStability.Window(
              (w.windowStartNanos() - startNanos) / 1e9,
              (w.windowEndNanos() - startNanos) / 1e9,
              w.ok(),
              w.achievedRps(),
              w.ttfabP95Ms(),
              i >= firstCounted && i <= lastCounted));
    }
    return new RungStability(
        rule.windows(),
        rule.percent(),
        rule.maxHold().toNanos() / 1e9,
        stable,
        finite(agreement.throughputSpreadPct()),
        finite(agreement.p95SpreadPct()),
        out);
  }

  private static @Nullable Double finite(double v) {
    return Double.isNaN(v) ? null : v;
  }
}
