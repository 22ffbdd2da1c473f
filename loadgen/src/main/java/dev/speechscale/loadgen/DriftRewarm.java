package dev.speechscale.loadgen;

import dev.speechscale.artifacts.QmaxRewarm;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What a run does when its end-of-run drift re-check lands beyond tolerance: pure decisions, no
 * clock and no load (issue 37, item 7; measurements/qmax-rewarm.md).
 *
 * <p>Two things move a reference rung between its two measurements: the machine (a shared host
 * slowed or sped up: the host-speed probe sees it) and the instance (a fresh JVM under a CPU quota
 * still compiling: the probe does not). Only the second is the endpoint's, and it passes: so when
 * the probe says the host stood still within {@link DriftRecheck#hostTolerancePct()}, the run holds
 * load at the reference rung until {@link #windows} consecutive windows agree within the ladder's
 * stability percent (the rule every rung is held by), then measures its rungs again and re-checks
 * once. When the host moved, or the budget cannot cover the warm-up windows plus the run's rungs
 * again (predicted from what they took the first time), the drift stays flagged as before. A host
 * nothing probes (where the platform has no probe) is not taken as moved: the warm-up windows
 * themselves then say whether the instance settles.
 */
final class DriftRewarm {
  private DriftRewarm() {}

  /** What to do after a re-check beyond tolerance. */
  sealed interface Decision permits Flag, Rewarm {}

  /** Keep the drift flag; nothing more is measured. */
  record Flag(String outcome, String reason) implements Decision {}

  /**
   * Hold load at the reference rung for at most {@code maxHold}, until {@code rule}'s windows
   * agree.
   */
  record Rewarm(StabilityRule rule, Duration maxHold, String reason) implements Decision {}

  /**
   * The decision after a re-check beyond tolerance.
   *
   * @param spec the ladder (its hold, window and stability percent shape the warm-up windows)
   * @param hostChangePct the host probe's time per unit during the re-check against during the
   *     first measurement, in percent (positive: slower), or {@code null} when not probed
   * @param remeasure what the run's rungs took the first time, re-check included; 1.2 times it is
   *     reserved for measuring them again
   */
  static Decision onDrift(LadderSpec spec, @Nullable Double hostChangePct, Duration remeasure) {
    DriftRecheck d = spec.drift();
    if (hostChangePct != null && Math.abs(hostChangePct) > d.hostTolerancePct()) {
      return new Flag(
          QmaxRewarm.MACHINE_MOVED,
          String.format(
              Locale.ROOT,
              "the host ran %+.1f %% per unit of work between the two measurements (tolerance"
                  + " %.0f %%): the machine moved, not the instance; the drift stays flagged",
              hostChangePct,
              d.hostTolerancePct()));
    }
    StabilityRule rule = rule(spec);
    Duration least = spec.hold().plus(spec.window().multipliedBy(rule.windows() - 1L));
    // the re-measurement is reserved 1.2 x what it took the first time: on a busy machine rungs
    // need more windows the second time (a live run overran its prediction by 9 %), and the warm-up
    // may use all that is left (the stability rule ends it early only when its windows agree)
    Duration reserved = remeasure.plus(remeasure.dividedBy(5));
    Duration left = d.rewarmBudget().minus(reserved);
    if (left.compareTo(least) < 0) {
      return new Flag(
          QmaxRewarm.BUDGET_TOO_SMALL,
          "a warm-up of at least "
              + ProgressPrinter.format(least)
              + " and the run's rungs again ("
              + ProgressPrinter.format(reserved)
              + ": 1.2 x what they took the first time) do not fit the rewarm budget of "
              + ProgressPrinter.format(d.rewarmBudget())
              + "; the drift stays flagged (raise --drift-rewarm-budget)");
    }
    String host =
        hostChangePct == null
            ? "the host was not probed"
            : String.format(
                Locale.ROOT,
                "the host ran %+.1f %% per unit of work (within %.0f %%)",
                hostChangePct,
                d.hostTolerancePct());
    return new Rewarm(
        rule,
        left,
        host
            + ", so the instance was taken for still warming up: load held at the reference rung"
            + " until "
            + rule.windows()
            + " consecutive windows agree within "
            + String.format(Locale.ROOT, "%.0f %%", rule.percent())
            + " (at most "
            + ProgressPrinter.format(left)
            + "), then the run measured again");
  }

  /**
   * The warm-up windows' rule: the ladder's stability rule when it holds for several windows, else
   * the default number of windows at the ladder's percent; bounded by the budget's remainder.
   */
  static StabilityRule rule(LadderSpec spec) {
    int k =
        spec.stability().extendsHold() ? spec.stability().windows() : StabilityRule.DEFAULT_WINDOWS;
    return new StabilityRule(k, spec.stability().percent(), Duration.ZERO);
  }

  /** The ladder to measure the warm-up windows with: one rung at the hold, held by {@code r}. */
  static LadderSpec warmupSpec(LadderSpec spec, Rewarm r) {
    return spec.withStability(
        new StabilityRule(r.rule().windows(), r.rule().percent(), r.maxHold()));
  }

  /** The outcome once the warm-up windows ended: null to go on and measure the run again. */
  static @Nullable Flag afterWarmup(boolean stable, int windows, Duration took) {
    if (stable) {
      return null;
    }
    return new Flag(
        QmaxRewarm.DID_NOT_SETTLE,
        "the warm-up's "
            + windows
            + " windows over "
            + ProgressPrinter.format(took)
            + " did not agree within the budget: the instance is not settling, so the drift stays"
            + " flagged");
  }

  /** The outcome once the run was measured again and re-checked. */
  static Flag afterRemeasure(boolean stillBeyond, int qMaxBefore, int qMaxAfter) {
    return stillBeyond
        ? new Flag(
            QmaxRewarm.STILL_DRIFTING,
            "measured again after the warm-up settled (Q_max "
                + qMaxBefore
                + " before, "
                + qMaxAfter
                + " after), the reference rung still drifted: the drift stays flagged")
        : new Flag(
            QmaxRewarm.REMEASURED,
            "measured again after the warm-up settled: Q_max "
                + qMaxBefore
                + " before, "
                + qMaxAfter
                + " after, and the reference rung held within tolerance");
  }
}
