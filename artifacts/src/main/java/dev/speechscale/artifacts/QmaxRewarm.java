package dev.speechscale.artifacts;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What qmax did when a drift re-check fired (additive in the qmax artifact's {@code drift} as
 * {@code rewarms}; older artifacts carry none): it asked the host-speed probe whether the machine
 * moved between the two measurements of the reference rung, and when it had not, took the instance
 * for still warming up, held load at the reference rung until its windows agreed, and measured the
 * run's rungs again within a budget of extra time.
 *
 * @param runIndex the run whose re-check fired
 * @param recheckStepIndex the step index of the re-check that fired (its entry in {@code
 *     rechecks}); when {@code remeasured_rungs} is not empty that re-check no longer describes the
 *     steps and is left out of {@code drifted} and {@code finding}
 * @param outcome one of {@link #MACHINE_MOVED}, {@link #BUDGET_TOO_SMALL}, {@link #DID_NOT_SETTLE},
 *     {@link #BUDGET_SPENT}, {@link #REMEASURED}, {@link #STILL_DRIFTING}, {@link #STOPPED}
 * @param reason the outcome in words, with its figures
 * @param hostChangePct how much slower (positive) or faster the host ran during the re-measurement
 *     than during the first measurement, in percent of the host-speed probe's time per unit; {@code
 *     null} when nothing probed the host
 * @param hostTolerancePct the host change still counted as the machine standing still
 * @param budgetS the extra time allowed: the warm-up windows and the re-measured rungs together
 * @param rewarmWindows the warm-up windows held at the reference rung ({@code 0}: none held)
 * @param rewarmStable whether the last of them agreed ({@code null}: none held)
 * @param rewarmS how long the warm-up windows took
 * @param remeasuredRungs the concurrencies of the run's steps measured before the warm-up settled,
 *     in the order they ran, which were measured again (the artifact's steps are the new ones)
 * @param qMaxBefore the run's Q_max from the rungs measured before the warm-up settled, or {@code
 *     null} when nothing was re-measured
 * @param extraS the wall-clock time all of this added to the run
 */
public record QmaxRewarm(
    int runIndex,
    int recheckStepIndex,
    String outcome,
    String reason,
    @Nullable Double hostChangePct,
    double hostTolerancePct,
    double budgetS,
    int rewarmWindows,
    @Nullable Boolean rewarmStable,
    double rewarmS,
    List<Integer> remeasuredRungs,
    @Nullable Integer qMaxBefore,
    double extraS) {

  /** The host moved beyond its tolerance: the drift is the machine's; the flag stays. */
  public static final String MACHINE_MOVED = "machine_moved";

  /** The budget does not cover a warm-up and the run's rungs again; the flag stays. */
  public static final String BUDGET_TOO_SMALL = "budget_too_small";

  /** The warm-up windows did not agree within what the budget left; the flag stays. */
  public static final String DID_NOT_SETTLE = "did_not_settle";

  /**
   * The rungs measured again took longer than the first time and the budget ran out before they all
   * were; the first measurement is kept and the flag stays.
   */
  public static final String BUDGET_SPENT = "budget_spent";

  /** The rungs were measured again and the second re-check stayed within tolerance. */
  public static final String REMEASURED = "remeasured";

  /** The rungs were measured again and the second re-check drifted too; the flag stays. */
  public static final String STILL_DRIFTING = "still_drifting";

  /** The ladder was stopped during the warm-up or the re-measurement. */
  public static final String STOPPED = "stopped";

  private static final List<String> OUTCOMES =
      List.of(
          MACHINE_MOVED,
          BUDGET_TOO_SMALL,
          DID_NOT_SETTLE,
          BUDGET_SPENT,
          REMEASURED,
          STILL_DRIFTING,
          STOPPED);

  public QmaxRewarm {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(reason, "reason");
    if (!OUTCOMES.contains(outcome)) {
      throw new ArtifactException(
          "drift rewarm outcome '" + outcome + "' is not one of " + String.join(", ", OUTCOMES));
    }
    remeasuredRungs = remeasuredRungs == null ? List.of() : List.copyOf(remeasuredRungs);
  }

  /** Whether the run's rungs were measured again, superseding the re-check that fired. */
  public boolean supersedesRecheck() {
    return !remeasuredRungs.isEmpty();
  }
}
