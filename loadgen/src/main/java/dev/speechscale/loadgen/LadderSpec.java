package dev.speechscale.loadgen;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How to walk a closed-loop ladder.
 *
 * @param rungs the coarse concurrencies, sorted and de-duplicated here
 * @param hold how long each rung is held
 * @param window the trailing part of the hold that is measured (the rest is warm-up)
 * @param settle idle time after each rung before the next (the drain of in-flight requests is
 *     waited for anyway; this is extra quiet time for the server)
 * @param runs how many passes of the whole ladder
 * @param refine bisect between the last passing and the first breaching rung of each run until they
 *     are adjacent (Q_max exact to ±1)
 * @param sloMs the p95 TTFAB SLO rungs are judged against
 * @param stopAfterBreach end a run's coarse pass at its first usable rung that breaches the SLO (it
 *     already brackets Q_max); {@code false} walks every coarse rung, as DESIGN §3 describes
 * @param saturatedToStop consecutive saturated rungs that end a run (2 in DESIGN §3)
 * @param capacityPoll how often the instance count is sampled during a rung (it is also sampled at
 *     each rung's start and end)
 * @param warmup load sent before the first rung at {@link #warmupConcurrency()} and then thrown
 *     away, so the first rungs do not measure a cold server (JIT compilation, caches); zero for
 *     none
 * @param drift when the run's reference rung is measured again to detect drift, and the tolerances
 *     it is judged by
 * @param stability how many consecutive windows must agree before a rung ends, how closely, and the
 *     longest a rung may be held; {@link StabilityRule#SINGLE_WINDOW} measures the trailing window
 *     of the hold once
 */
public record LadderSpec(
    List<Integer> rungs,
    Duration hold,
    Duration window,
    Duration settle,
    int runs,
    boolean refine,
    double sloMs,
    boolean stopAfterBreach,
    int saturatedToStop,
    Duration capacityPoll,
    Duration warmup,
    DriftRecheck drift,
    StabilityRule stability) {

  /** Workers the warm-up runs with (fewer when the ladder's top rung is lower). */
  public static final int WARMUP_CONCURRENCY = 4;

  public LadderSpec {
    Objects.requireNonNull(drift, "drift");
    if (rungs.isEmpty()) {
      throw new LoadgenException("the ladder has no rungs; give at least one concurrency");
    }
    for (Integer n : rungs) {
      if (n == null || n < 1) {
        throw new LoadgenException(
            "rung concurrency (" + n + ") must be at least 1; every rung is a number of workers");
      }
    }
    rungs = rungs.stream().distinct().sorted().toList();
    if (window.isNegative() || window.isZero()) {
      throw new LoadgenException("window (" + window + ") must be positive");
    }
    if (hold.compareTo(window) < 0) {
      throw new LoadgenException(
          "hold ("
              + hold
              + ") must be at least window ("
              + window
              + "); the window is the trailing part of the hold, so shorten the window or"
              + " lengthen the hold");
    }
    if (settle.isNegative()) {
      throw new LoadgenException("settle (" + settle + ") must not be negative");
    }
    if (runs < 1) {
      throw new LoadgenException("runs (" + runs + ") must be at least 1");
    }
    if (!(sloMs > 0)) {
      throw new LoadgenException("SLO (" + sloMs + " ms) must be positive");
    }
    if (saturatedToStop < 1) {
      throw new LoadgenException(
          "saturatedToStop (" + saturatedToStop + ") must be at least 1 (DESIGN uses 2)");
    }
    if (capacityPoll.isNegative() || capacityPoll.isZero()) {
      throw new LoadgenException("capacityPoll (" + capacityPoll + ") must be positive");
    }
    if (warmup.isNegative()) {
      throw new LoadgenException(
          "warm-up (" + warmup + ") must not be negative; use 0s for no warm-up");
    }
    Duration fits = hold.plus(window.multipliedBy(stability.windows() - 1L));
    if (stability.extendsHold() && stability.maxHold().compareTo(fits) < 0) {
      throw new LoadgenException(
          "max hold ("
              + stability.maxHold()
              + ") must be at least hold + (stability windows - 1) x window = "
              + hold
              + " + "
              + (stability.windows() - 1)
              + " x "
              + window
              + " = "
              + fits
              + ", so "
              + stability.windows()
              + " windows fit after the warm-up; lengthen the max hold or ask for fewer windows");
    }
  }

  /**
   * The shortest a rung is held: {@link #hold()}, plus a window for each further window that must
   * agree.
   */
  public Duration minimumHold() {
    return hold.plus(window.multipliedBy(stability.windows() - 1L));
  }

  /** The longest a rung is held: the stability rule's bound, or {@link #hold()} with one window. */
  public Duration maximumHold() {
    return stability.extendsHold() ? stability.maxHold() : hold;
  }

  /** {@link #WARMUP_CONCURRENCY}, or the top rung when that is lower. */
  public int warmupConcurrency() {
    return Math.min(WARMUP_CONCURRENCY, rungs.getLast());
  }

  /**
   * A spec with DESIGN §3's defaults: bisection on, every coarse rung walked, two saturated rungs
   * stop a run, instance count sampled every 10 s, no extra settle time, no warm-up; and the
   * reference rung re-measured at the end of each run ({@link DriftRecheck#DEFAULT}); each rung its
   * hold's trailing window ({@link StabilityRule#SINGLE_WINDOW}).
   */
  public static LadderSpec of(
      List<Integer> rungs, Duration hold, Duration window, int runs, double sloMs) {
    return new LadderSpec(
        rungs,
        hold,
        window,
        Duration.ZERO,
        runs,
        true,
        sloMs,
        false,
        2,
        Duration.ofSeconds(10),
        Duration.ZERO,
        DriftRecheck.DEFAULT,
        StabilityRule.SINGLE_WINDOW);
  }

  public LadderSpec withRefine(boolean refine) {
    return edit(c -> c.refine = refine);
  }

  public LadderSpec withSettle(Duration settle) {
    return edit(c -> c.settle = settle);
  }

  public LadderSpec withStopAfterBreach(boolean stopAfterBreach) {
    return edit(c -> c.stopAfterBreach = stopAfterBreach);
  }

  public LadderSpec withWarmup(Duration warmup) {
    return edit(c -> c.warmup = warmup);
  }

  public LadderSpec withDrift(DriftRecheck drift) {
    return edit(c -> c.drift = drift);
  }

  public LadderSpec withStability(StabilityRule stability) {
    return edit(c -> c.stability = stability);
  }

  /** This spec with one change, validated again by the canonical constructor. */
  private LadderSpec edit(Consumer<Copy> change) {
    Copy copy = new Copy(this);
    change.accept(copy);
    return copy.build();
  }

  /** A mutable copy of a spec's components, so that each wither names only what it changes. */
  private static final class Copy {
    List<Integer> rungs;
    Duration hold;
    Duration window;
    Duration settle;
    int runs;
    boolean refine;
    double sloMs;
    boolean stopAfterBreach;
    int saturatedToStop;
    Duration capacityPoll;
    Duration warmup;
    DriftRecheck drift;
    StabilityRule stability;

    Copy(LadderSpec spec) {
      rungs = spec.rungs;
      hold = spec.hold;
      window = spec.window;
      settle = spec.settle;
      runs = spec.runs;
      refine = spec.refine;
      sloMs = spec.sloMs;
      stopAfterBreach = spec.stopAfterBreach;
      saturatedToStop = spec.saturatedToStop;
      capacityPoll = spec.capacityPoll;
      warmup = spec.warmup;
      drift = spec.drift;
      stability = spec.stability;
    }

    LadderSpec build() {
      return new LadderSpec(
          rungs,
          hold,
          window,
          settle,
          runs,
          refine,
          sloMs,
          stopAfterBreach,
          saturatedToStop,
          capacityPoll,
          warmup,
          drift,
          stability);
    }
  }
}
