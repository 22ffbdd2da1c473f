package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.QmaxDrift;
import dev.speechscale.artifacts.QmaxRewarm;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A drift re-check beyond tolerance on a simulated server: the run is warmed up and measured again
 * when the host stood still, and only flagged when the machine moved or the budget does not fit.
 */
class LadderRewarmTest {
  private static final double SLO = 125; // a serial server at 10 ms per request: Q_max = 12
  private static final List<Integer> RUNGS = List.of(1, 5, 10, 20);

  private static LadderSpec spec(DriftRecheck drift) {
    return LadderSpec.of(RUNGS, Duration.ofSeconds(4), Duration.ofSeconds(2), 1, SLO)
        .withDrift(drift);
  }

  /**
   * Warm from the re-check on: the first pass (7 rungs) ran 1.3 × slower, so it closed Q_max at 9
   * and its reference N=5 re-measured 30 % faster.
   */
  private static SimulatedMeasurer warming() {
    return SimulatedMeasurer.serial(10).warmingFor(7, 1.3);
  }

  private static LadderResult run(SimulatedMeasurer m, LadderHooks hooks, DriftRecheck drift) {
    return new LadderRunner(m, hooks).run(spec(drift));
  }

  @Test
  void run_instanceStillWarming_hostStill_warmsUpRemeasuresAndClearsTheFlag() {
    SimulatedMeasurer m = warming();

    LadderResult result =
        run(m, LadderHooks.defaults().withHostSpeed((a, b, c, d) -> 2.0), DriftRecheck.DEFAULT);

    assertThat(m.asked)
        .containsExactly(
            "0:1", "0:5", "0:10", "0:20", "0:7", "0:8", "0:9", "0:5r", // first pass, re-check
            "0:5r", // warm-up windows at the reference rung
            "0:1", "0:5", "0:10", "0:20", "0:15", "0:12", "0:13", "0:10r"); // again, re-check
    assertThat(result.ladder().qMax()).isEqualTo(12);
    assertThat(result.steps()).hasSize(7); // the first pass's steps were replaced
    QmaxDrift drift = result.drift();
    assertThat(drift.rechecks()).hasSize(2);
    assertThat(drift.rechecks().getFirst().beyondTolerance()).isTrue();
    assertThat(drift.drifted()).isFalse();
    assertThat(drift.finding()).isNull();
    QmaxRewarm w = drift.rewarms().getFirst();
    assertThat(w.outcome()).isEqualTo(QmaxRewarm.REMEASURED);
    assertThat(w.recheckStepIndex()).isEqualTo(7);
    assertThat(w.hostChangePct()).isEqualTo(2.0);
    assertThat(w.rewarmWindows()).isEqualTo(1);
    assertThat(w.rewarmStable()).isTrue();
    assertThat(w.remeasuredRungs()).containsExactly(1, 5, 10, 20, 7, 8, 9);
    assertThat(w.qMaxBefore()).isEqualTo(9);
    assertThat(w.reason()).contains("Q_max 9 before, 12 after");
    assertThat(result.notes()).anyMatch(n -> n.startsWith("run 1: drift rewarm remeasured"));
  }

  @Test
  void run_hostMovedBeyondItsTolerance_flagsOnlyAndMeasuresNothingMore() {
    SimulatedMeasurer m = warming();

    LadderResult result =
        run(m, LadderHooks.defaults().withHostSpeed((a, b, c, d) -> -25.0), DriftRecheck.DEFAULT);

    assertThat(m.asked).hasSize(8).endsWith("0:5r");
    assertThat(result.ladder().qMax()).isEqualTo(9);
    QmaxDrift drift = result.drift();
    assertThat(drift.drifted()).isTrue();
    QmaxRewarm w = drift.rewarms().getFirst();
    assertThat(w.outcome()).isEqualTo(QmaxRewarm.MACHINE_MOVED);
    assertThat(w.reason()).contains("-25.0 %").contains("machine moved");
    assertThat(w.rewarmWindows()).isZero();
    assertThat(w.rewarmStable()).isNull();
    assertThat(w.remeasuredRungs()).isEmpty();
  }

  @Test
  void run_hostNotProbed_takesItForWarming() {
    LadderResult result = run(warming(), LadderHooks.defaults(), DriftRecheck.DEFAULT);

    QmaxRewarm w = result.drift().rewarms().getFirst();
    assertThat(w.outcome()).isEqualTo(QmaxRewarm.REMEASURED);
    assertThat(w.hostChangePct()).isNull();
  }

  @Test
  void run_budgetTooSmallForTheRungsAgain_flagsOnly() {
    SimulatedMeasurer m = warming();

    // the first pass took 8 rungs x 5 s: 1.2 x 40 s is reserved to measure again; 30 s cannot
    LadderResult result =
        run(
            m,
            LadderHooks.defaults(),
            DriftRecheck.DEFAULT.withRewarmBudget(Duration.ofSeconds(30)));

    assertThat(m.asked).hasSize(8);
    QmaxRewarm w = result.drift().rewarms().getFirst();
    assertThat(w.outcome()).isEqualTo(QmaxRewarm.BUDGET_TOO_SMALL);
    assertThat(w.budgetS()).isEqualTo(30.0);
    assertThat(result.drift().drifted()).isTrue();
  }

  @Test
  void run_zeroBudget_flagsAsBeforeWithNoRewarmRecorded() {
    SimulatedMeasurer m = warming();

    LadderResult result =
        run(m, LadderHooks.defaults(), DriftRecheck.DEFAULT.withRewarmBudget(Duration.ZERO));

    assertThat(m.asked).hasSize(8);
    assertThat(result.drift().rewarms()).isEmpty();
    assertThat(result.drift().drifted()).isTrue();
    assertThat(result.ladder().qMax()).isEqualTo(9);
  }

  @Test
  void run_warmupWindowsNeverAgree_keepsTheFirstPassAndTheFlag() {
    SimulatedMeasurer m = warming().unstableAtCall(call -> call == 8);

    LadderResult result = run(m, LadderHooks.defaults(), DriftRecheck.DEFAULT);

    assertThat(m.asked).hasSize(9);
    QmaxRewarm w = result.drift().rewarms().getFirst();
    assertThat(w.outcome()).isEqualTo(QmaxRewarm.DID_NOT_SETTLE);
    assertThat(w.rewarmWindows()).isEqualTo(3);
    assertThat(w.rewarmStable()).isFalse();
    assertThat(result.drift().drifted()).isTrue();
    assertThat(result.ladder().qMax()).isEqualTo(9);
  }

  @Test
  void run_stillDriftingAfterTheRemeasure_keepsTheFlagOnTheNewRungs() {
    // every re-check 1.25 x slower, whatever the warm-up does: not a warm-up effect
    SimulatedMeasurer m = SimulatedMeasurer.serial(10).slowerAtRecheck(1.25);

    LadderResult result = run(m, LadderHooks.defaults(), DriftRecheck.DEFAULT);

    QmaxRewarm w = result.drift().rewarms().getFirst();
    assertThat(w.outcome()).isEqualTo(QmaxRewarm.STILL_DRIFTING);
    assertThat(w.remeasuredRungs()).isNotEmpty();
    QmaxDrift drift = result.drift();
    assertThat(drift.drifted()).isTrue();
    assertThat(drift.finding()).contains("measured again after a warm-up");
    assertThat(drift.rungDrifts()).hasSize(1); // the superseded first re-check is left out
  }

  @Test
  void run_stoppedDuringTheRemeasure_keepsTheFirstPass() {
    SimulatedMeasurer m = warming();
    LadderRunner runner = new LadderRunner(m, LadderHooks.defaults());
    m.onMeasure(() -> {
      if (m.asked.size() == 11) {
        runner.stop();
      }
    });

    LadderResult result = runner.run(spec(DriftRecheck.DEFAULT));

    assertThat(result.ladder().qMax()).isEqualTo(9);
    assertThat(result.steps()).hasSize(7);
    assertThat(result.drift().rewarms().getFirst().outcome()).isEqualTo(QmaxRewarm.STOPPED);
    assertThat(result.drift().drifted()).isTrue();
  }

  @Test
  void run_remeasureSlowerThanTheFirstPass_stopsAtTheBudgetAndKeepsTheFirstPass() {
    // every measurement takes 10 s on the ladder's clock, twice the 5 s each reported the first
    // time: the reservation (1.2 x 8 x 5 s = 48 s) fits a 60 s budget, the re-measurement does not
    java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
    SimulatedMeasurer m =
        warming().onMeasure(() -> now.addAndGet(Duration.ofSeconds(10).toNanos()));
    LadderHooks hooks = LadderHooks.defaults().withClocks(now::get, java.time.Clock.systemUTC());

    LadderResult result =
        run(m, hooks, DriftRecheck.DEFAULT.withRewarmBudget(Duration.ofSeconds(60)));

    // first pass and re-check (8), the warm-up windows (1), then 5 rungs again before the budget
    assertThat(m.asked).hasSize(14);
    QmaxRewarm w = result.drift().rewarms().getFirst();
    assertThat(w.outcome()).isEqualTo(QmaxRewarm.BUDGET_SPENT);
    assertThat(w.reason()).contains("ran out after 5 rungs measured again");
    assertThat(w.extraS()).isLessThanOrEqualTo(60.0);
    assertThat(w.remeasuredRungs()).isEmpty();
    assertThat(result.steps()).hasSize(7);
    assertThat(result.ladder().qMax()).isEqualTo(9);
    assertThat(result.drift().drifted()).isTrue();
  }
}
