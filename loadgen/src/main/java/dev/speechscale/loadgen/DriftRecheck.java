package dev.speechscale.loadgen;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Whether and when a ladder re-measures its reference rung to detect drift, and how far the second
 * measurement may move before the ladder is said to have drifted.
 *
 * <p>The reference rung of a run is its highest coarse rung that met the SLO: the lower end of the
 * bisection, so Q_max is that rung or one bisected above it — the neighbourhood the plan rests on.
 * It is known before bisection starts, so every re-measurement of a run compares the same rung, and
 * it was measured early (in the coarse pass), so a re-measurement at the end spans the run's
 * breaching coarse rungs and its whole bisection. Q_max's own rung would be no better a witness:
 * after a bisection it was measured moments before the end, and a check of two neighbouring windows
 * sees noise, not drift.
 *
 * <p>Default tolerances, from the noise already recorded: first- against second-half figures of the
 * rungs that met the SLO in examples/quickstart (10 rungs, 8 s holds) and
 * measurements/simulator-calibration/run8 (30 s holds) moved throughput 0–7.8 % and p95 0.2–8.1 %
 * on a quiet machine, and two full windows are less noisy than two halves (twice the samples each);
 * the p95's own 95 % order-statistic interval near Q_max is about ±1–2 %. A busy machine moved the
 * halves 5.7–42 % and 2–65 % (measurements/ttotal-runs/qmax-tt2.json), and issue 15's drift was −18
 * % in throughput. 10 % sits above the quiet noise and below that drift; for a serial engine Q_max
 * moves with throughput, so 10 % is also about the change that moves a Q_max of 14–21 by more than
 * the ±1 bisection claims. p95 is a tail figure and in a closed loop moves at least as much as
 * 1/throughput, so its tolerance is wider: 15 %.
 *
 * @param mode when to re-measure
 * @param throughputTolerancePct the throughput change, in percent of the first measurement, still
 *     counted as noise
 * @param p95TolerancePct the p95 TTFAB change, in percent, still counted as noise
 * @param rewarmBudget the extra time a run may spend, when its end-of-run re-check drifts beyond
 *     tolerance and the host did not move, warming the instance up again and measuring its rungs
 *     again ({@link DriftRewarm}); zero only flags the drift, as before
 * @param hostTolerancePct the change of the host-speed probe's time per unit between the two
 *     measurements of the reference rung still counted as the machine standing still
 */
public record DriftRecheck(
    Mode mode,
    double throughputTolerancePct,
    double p95TolerancePct,
    Duration rewarmBudget,
    double hostTolerancePct) {

  public static final double DEFAULT_THROUGHPUT_TOLERANCE_PCT = 10;
  public static final double DEFAULT_P95_TOLERANCE_PCT = 15;

  /**
   * The default extra time for a rewarm: the quickstart's ladder (six coarse rungs, about three
   * bisection rungs and the re-check, 18–28 s each with its stability windows) takes about four
   * minutes, and the warm-up windows at least 18 s; five minutes covers both.
   */
  public static final Duration DEFAULT_REWARM_BUDGET = Duration.ofMinutes(5);

  /**
   * The default host tolerance: the throughput tolerance. A serial engine's service time follows
   * its host's time per unit, so a host that moved this much explains a throughput drift of this
   * size.
   */
  public static final double DEFAULT_HOST_TOLERANCE_PCT = DEFAULT_THROUGHPUT_TOLERANCE_PCT;

  /** Re-measure at the end of each run, default tolerances. */
  public static final DriftRecheck DEFAULT =
      new DriftRecheck(Mode.END, DEFAULT_THROUGHPUT_TOLERANCE_PCT, DEFAULT_P95_TOLERANCE_PCT);

  /** No re-measurement. */
  public static final DriftRecheck OFF =
      new DriftRecheck(Mode.OFF, DEFAULT_THROUGHPUT_TOLERANCE_PCT, DEFAULT_P95_TOLERANCE_PCT);

  /** A check with the default rewarm budget and host tolerance. */
  public DriftRecheck(Mode mode, double throughputTolerancePct, double p95TolerancePct) {
    this(
        mode,
        throughputTolerancePct,
        p95TolerancePct,
        DEFAULT_REWARM_BUDGET,
        DEFAULT_HOST_TOLERANCE_PCT);
  }

  /** This check with another rewarm budget ({@link Duration#ZERO}: flag only). */
  public DriftRecheck withRewarmBudget(Duration budget) {
    return new DriftRecheck(
        mode, throughputTolerancePct, p95TolerancePct, budget, hostTolerancePct);
  }

  /** When the reference rung is measured again. */
  public enum Mode {
    /** Never: the ladder carries no drift check. */
    OFF,
    /** Once per run, after its bisection (or its coarse pass when nothing is bisected). */
    END,
    /** Also between consecutive bisection steps: one more hold per bisection step but the last. */
    BISECTION;

    /** The CLI's spelling: {@code off}, {@code end}, {@code bisection}. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@link #label()}. */
    public static Mode ofLabel(String label) {
      for (Mode m : values()) {
        if (m.label().equals(label)) {
          return m;
        }
      }
      throw new LoadgenException(
          "drift re-check '"
              + label
              + "' is not one of off, end, bisection; use end (the default) to re-measure once"
              + " per run");
    }
  }

  public DriftRecheck {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(rewarmBudget, "rewarmBudget");
    if (rewarmBudget.isNegative()) {
      throw new LoadgenException(
          "drift rewarm budget ("
              + rewarmBudget
              + ") must not be negative; 0s only flags a drift, e.g. "
              + DEFAULT_REWARM_BUDGET);
    }
    requirePositivePct("host", hostTolerancePct, DEFAULT_HOST_TOLERANCE_PCT);
    requirePositivePct("throughput", throughputTolerancePct, DEFAULT_THROUGHPUT_TOLERANCE_PCT);
    requirePositivePct("p95", p95TolerancePct, DEFAULT_P95_TOLERANCE_PCT);
  }

  /** A tolerance must be a finite percentage above zero; the error names it and an example. */
  private static void requirePositivePct(String name, double pct, double example) {
    if (!(pct > 0) || Double.isInfinite(pct)) {
      throw new LoadgenException(
          "drift "
              + name
              + " tolerance ("
              + pct
              + " %) must be a positive percentage, e.g. "
              + example);
    }
  }

  /** Whether anything is re-measured. */
  public boolean enabled() {
    return mode != Mode.OFF;
  }

  /**
   * Re-measurements one run makes when its bisection measures {@code bisectionSteps} rungs: none
   * when off, one at the end, and with {@link Mode#BISECTION} one between each two steps as well.
   */
  public int rechecksPerRun(int bisectionSteps) {
    return switch (mode) {
      case OFF -> 0;
      case END -> 1;
      case BISECTION -> Math.max(1, bisectionSteps);
    };
  }
}
