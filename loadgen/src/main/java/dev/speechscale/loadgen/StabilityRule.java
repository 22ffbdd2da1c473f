package dev.speechscale.loadgen;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * When a rung is steady enough to stop: after its warm-up ({@link LadderSpec#hold()} minus {@link
 * LadderSpec#window()}) it is measured in consecutive windows of {@link LadderSpec#window()} until
 * the last {@link #windows()} of them agree — each one's throughput and p95 TTFAB within {@link
 * #percent()} % of those windows' mean ({@link WindowAgreement}) — or until the hold reaches {@link
 * #maxHold()}. With one window the rung is its hold's trailing window and nothing more, the
 * measurement from before this rule existed.
 *
 * <p>perf_analyzer does the same (three windows, 10 %, then it gives up after a bounded number of
 * trials); the defaults here ({@link #defaultsFor}) are three windows and 10 % too, the bound two
 * spare windows past the three. Why 10 % on this machine: measurements/rung-stability.md.
 *
 * @param windows how many consecutive windows must agree; 1 for a single trailing window
 * @param percent how far from their mean, in percent of it, each window's throughput and p95 may be
 * @param maxHold the longest a rung may be held, its warm-up included; ignored with one window (the
 *     hold is then exactly {@link LadderSpec#hold()})
 */
public record StabilityRule(int windows, double percent, Duration maxHold) {
  /** Consecutive windows that must agree, by default: perf_analyzer's three. */
  public static final int DEFAULT_WINDOWS = 3;

  /** How far each may stray from their mean, by default. */
  public static final double DEFAULT_PERCENT = 10;

  /** Windows past the required ones the default max hold allows for the rung to settle. */
  public static final int SPARE_WINDOWS = 2;

  /** One trailing window per rung, no extension: the measurement before this rule. */
  public static final StabilityRule SINGLE_WINDOW =
      new StabilityRule(1, DEFAULT_PERCENT, Duration.ZERO);

  public StabilityRule {
    Objects.requireNonNull(maxHold, "maxHold");
    if (windows < 1) {
      throw new LoadgenException(
          "stability windows ("
              + windows
              + ") must be at least 1; 1 measures each rung's trailing window once, as before");
    }
    if (!(percent > 0) || percent > 100 || Double.isNaN(percent)) {
      throw new LoadgenException(
          String.format(
              Locale.ROOT,
              "stability percent (%s) must be above 0 and at most 100: each window's throughput"
                  + " and p95 must lie within that share of their mean; e.g. 10",
              percent));
    }
    if (maxHold.isNegative()) {
      throw new LoadgenException("max hold (" + maxHold + ") must not be negative");
    }
  }

  /**
   * The defaults for a ladder of this hold and window: {@link #DEFAULT_WINDOWS} windows within
   * {@link #DEFAULT_PERCENT} %, held at most long enough for {@link #SPARE_WINDOWS} more windows
   * than the agreeing ones need: hold + (3 − 1 + 2) × window. Per platform through its ladder
   * defaults: local 30 s / 20 s → 70–110 s a rung; the quickstart's 8 s / 5 s → 18–28 s; the
   * published SageMaker ladder's 240 s / 60 s → 360–480 s.
   */
  public static StabilityRule defaultsFor(Duration hold, Duration window) {
    return withWindows(DEFAULT_WINDOWS, DEFAULT_PERCENT, hold, window);
  }

  /** {@code windows} within {@code percent}, with the default bound for that many windows. */
  public static StabilityRule withWindows(
      int windows, double percent, Duration hold, Duration window) {
    if (windows == 1) {
      return new StabilityRule(1, percent, Duration.ZERO);
    }
    return new StabilityRule(
        windows, percent, hold.plus(window.multipliedBy((long) windows - 1 + SPARE_WINDOWS)));
  }

  /** More than one window: the rung's hold is extended until they agree. */
  public boolean extendsHold() {
    return windows > 1;
  }
}
