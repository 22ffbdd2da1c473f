package dev.speechscale.loadgen;

import java.time.Duration;
import java.util.List;

/**
 * The most a ladder's bisection and its drift re-checks can add, whatever the endpoint turns out to
 * be: the schedule a dry run budgets before anything is known about where the SLO breaks.
 *
 * <p>Bisection runs between the last passing coarse rung and the first breaching one, halving the
 * gap until it is 1, so a gap of g costs at most ⌈log2 g⌉ extra rungs. Where the crossing falls is
 * not known in advance, so the allowance takes the widest gap of the coarse ladder (on the
 * published ladder 1, 5, 10, 20 … 60 that is 10: 4 rungs of 240 s, about 18 minutes). The drift
 * check re-measures the reference rung once at the end of each run, and with {@link
 * DriftRecheck.Mode#BISECTION} between each two bisection steps as well ({@link
 * DriftRecheck#rechecksPerRun(int)}). Each extra rung costs the settle before it, its hold (at most
 * its {@link LadderSpec#maximumHold()} when its windows must agree), and the drain of its in-flight
 * requests under the dry run's service assumption, bounded by the top rung's drain, once per run.
 *
 * @param rungsPerRun the most bisection rungs one run can add (0 without refinement)
 * @param rechecksPerRun the most drift re-checks of the reference rung one run can add (0 when the
 *     check is off)
 * @param below the lower coarse rung of the widest gap
 * @param above the upper coarse rung of the widest gap
 * @param wallTime the most the bisection and the re-checks can add to the ladder's wall clock, all
 *     runs
 */
public record BisectionAllowance(
    int rungsPerRun, int rechecksPerRun, int below, int above, Duration wallTime) {

  /** The worst case for this ladder under this service assumption. */
  public static BisectionAllowance worstCase(LadderSpec spec, DryRun.ServiceAssumption s) {
    List<Integer> rungs = spec.rungs();
    int below = 0;
    int above = 0;
    for (int i = 1; i < rungs.size(); i++) {
      if (rungs.get(i) - rungs.get(i - 1) > above - below) {
        below = rungs.get(i - 1);
        above = rungs.get(i);
      }
    }
    int extra = !spec.refine() || above - below <= 1 ? 0 : ceilLog2(above - below);
    int rechecks = spec.drift().rechecksPerRun(extra);
    // a bisection rung and the reference rung lie at or below the top rung, so the top rung's
    // drain bounds every one of them; each is held at most to its max hold
    Duration perRung = spec.settle().plus(spec.maximumHold()).plus(s.drain(rungs.getLast()));
    return new BisectionAllowance(
        extra,
        rechecks,
        below,
        above,
        perRung.multipliedBy((long) (extra + rechecks) * spec.runs()));
  }

  /** ⌈log2 g⌉ for g ≥ 2: the halvings that take a gap of g to 1. */
  static int ceilLog2(int g) {
    return 32 - Integer.numberOfLeadingZeros(g - 1);
  }
}
