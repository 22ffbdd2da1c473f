package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.QmaxRewarm;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rewarm's decisions on their own: figures in, a decision out. */
class DriftRewarmTest {
  private static final LadderSpec SPEC =
      LadderSpec.of(
              List.of(1, 2, 4, 8, 16, 32), Duration.ofSeconds(8), Duration.ofSeconds(5), 1, 1000)
          .withStability(StabilityRule.defaultsFor(Duration.ofSeconds(8), Duration.ofSeconds(5)));

  @Test
  void onDrift_hostBeyondItsTolerance_isTheMachine() {
    assertThat(DriftRewarm.onDrift(SPEC, 10.5, Duration.ofMinutes(3)))
        .isInstanceOfSatisfying(
            DriftRewarm.Flag.class,
            f -> assertThat(f.outcome()).isEqualTo(QmaxRewarm.MACHINE_MOVED));
    assertThat(DriftRewarm.onDrift(SPEC, -10.5, Duration.ofMinutes(3)))
        .isInstanceOf(DriftRewarm.Flag.class);
  }

  @Test
  void onDrift_hostWithinOrUnknown_warmsUpWithWhatTheBudgetLeaves() {
    for (Double host : new Double[] {null, 0.0, 9.9, -9.9}) {
      assertThat(DriftRewarm.onDrift(SPEC, host, Duration.ofMinutes(3)))
          .isInstanceOfSatisfying(
              DriftRewarm.Rewarm.class,
              r -> {
                // 5 min - 1.2 x 3 min
                assertThat(r.maxHold()).isEqualTo(Duration.ofSeconds(84));
                assertThat(r.rule().windows()).isEqualTo(3);
                assertThat(r.rule().percent()).isEqualTo(10.0);
              });
    }
  }

  @Test
  void onDrift_budgetLeavesLessThanTheWindows_flagsBudgetTooSmall() {
    // 3 windows need hold + 2 x window = 18 s; 5 min - 1.2 x 236 s leaves 16.8 s
    assertThat(DriftRewarm.onDrift(SPEC, 0.0, Duration.ofSeconds(236)))
        .isInstanceOfSatisfying(
            DriftRewarm.Flag.class,
            f -> {
              assertThat(f.outcome()).isEqualTo(QmaxRewarm.BUDGET_TOO_SMALL);
              assertThat(f.reason()).contains("--drift-rewarm-budget");
            });
    assertThat(DriftRewarm.onDrift(SPEC, 0.0, Duration.ofSeconds(235)))
        .isInstanceOf(DriftRewarm.Rewarm.class);
  }

  @Test
  void rule_singleWindowLadder_stillAsksForSeveralAgreeingWindows() {
    LadderSpec single = SPEC.withStability(StabilityRule.SINGLE_WINDOW);

    assertThat(DriftRewarm.rule(single).windows()).isEqualTo(StabilityRule.DEFAULT_WINDOWS);
    DriftRewarm.Rewarm r =
        (DriftRewarm.Rewarm) DriftRewarm.onDrift(single, null, Duration.ofMinutes(1));
    assertThat(DriftRewarm.warmupSpec(single, r).maximumHold()).isEqualTo(Duration.ofSeconds(228));
  }

  @Test
  void afterWarmupAndRemeasure_sayWhatHappened() {
    assertThat(DriftRewarm.afterWarmup(true, 3, Duration.ofSeconds(18))).isNull();
    assertThat(DriftRewarm.afterWarmup(false, 6, Duration.ofSeconds(33)).outcome())
        .isEqualTo(QmaxRewarm.DID_NOT_SETTLE);
    assertThat(DriftRewarm.afterRemeasure(false, 11, 14).outcome())
        .isEqualTo(QmaxRewarm.REMEASURED);
    assertThat(DriftRewarm.afterRemeasure(true, 11, 14).outcome())
        .isEqualTo(QmaxRewarm.STILL_DRIFTING);
  }
}
