package dev.speechscale.scaling;

import static dev.speechscale.scaling.SecondSamples.T0_MS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.scaling.ScalingDecision.Direction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hand-worked timelines: a clock advancing by 1 s from an epoch-aligned T0, a metric sampled every
 * second, and the exact second each decision must fall on.
 */
class ScalingEngineTest {
  /** Target 4, scale-in at 2, 1..5 instances, cooldowns 30 s out and 120 s in. */
  static final ScalingRules PLANNED =
      ScalingRules.planned(
          4, 2, 1, 5, Duration.ofSeconds(30), Duration.ofSeconds(120), ScaleInAlarm.AVERAGE_60S);

  /** An endpoint that does what it is told, instantly (in service follows desired if asked). */
  static final class Fleet {
    int desired;
    int inService;
    boolean inServiceFollows;
    Suspension suspension = Suspension.NONE;
    final List<Step> changes = new ArrayList<>();

    Fleet(int desired, int inService) {
      this.desired = desired;
      this.inService = inService;
    }

    record Step(int second, ScalingDecision decision) {}

    /** Evaluates once a second in {@code [fromS, toS]}, applying every decision. */
    Fleet run(ScalingEngine engine, Datapoints d, int fromS, int toS) {
      for (int s = fromS; s <= toS; s++) {
        step(engine, d, s);
      }
      return this;
    }

    ScalingDecision step(ScalingEngine engine, Datapoints d, int second) {
      ScalingDecision decision =
          engine.evaluate(T0_MS + second * 1000L, d, desired, inService, suspension);
      if (decision.changes()) {
        changes.add(new Step(second, decision));
        desired = decision.desired();
        if (inServiceFollows) {
          inService = desired;
        }
      } else {
        assertThat(decision.desired()).isEqualTo(desired);
      }
      return decision;
    }

    List<Integer> seconds() {
      return changes.stream().map(Step::second).toList();
    }
  }

  @Test
  void evaluate_thirdBreachingPeriodCloses_scalesOutAtExactlyThatSecond() {
    SecondSamples load = new SecondSamples().set(0, 120, 6.0);
    ScalingEngine engine = new ScalingEngine(PLANNED);
    Fleet fleet = new Fleet(1, 1);

    fleet.run(engine, load, 0, 29);
    assertThat(fleet.changes).isEmpty();
    assertThat(engine.highAlarm()).isEqualTo(AlarmState.INSUFFICIENT_DATA);

    ScalingDecision d = fleet.step(engine, load, 30);

    assertThat(engine.highAlarm()).isEqualTo(AlarmState.ALARM);
    assertThat(d.direction()).isEqualTo(Direction.OUT);
    assertThat(d.desired()).as("ceil(1 x 6 / 4)").isEqualTo(2);
    assertThat(d.cause())
        .isEqualTo(
            "target tracking: ConcurrentRequestsPerModel Maximum 6.00 > target 4.00 for 3"
                + " periods; desired = ceil(1 x 6.00 / 4.00)");
  }

  @Test
  void evaluate_loadStartsMidPeriod_stillDecidesOnTheEpochAlignedBoundary() {
    SecondSamples load = new SecondSamples().set(3, 120, 6.0);
    Fleet fleet = new Fleet(1, 1);

    fleet.run(new ScalingEngine(PLANNED), load, 0, 40);

    assertThat(fleet.seconds()).containsExactly(30);
    assertThat(load.askedEndMs).allMatch(end -> end % 10_000 == 0);
  }

  @Test
  void evaluate_onlyTwoPeriodsAbove_waitsForTheThird() {
    SecondSamples load = new SecondSamples().set(0, 10, 1.0).set(10, 120, 6.0);
    Fleet fleet = new Fleet(1, 1);

    fleet.run(new ScalingEngine(PLANNED), load, 0, 40);

    assertThat(fleet.seconds()).containsExactly(40);
  }

  @Test
  void evaluate_maximumExactlyAtTarget_doesNotBreach() {
    SecondSamples load = new SecondSamples().set(0, 60, 4.0);
    ScalingEngine engine = new ScalingEngine(PLANNED);

    new Fleet(1, 1).run(engine, load, 0, 59);

    assertThat(engine.highAlarm()).isEqualTo(AlarmState.OK);
  }

  @Test
  void evaluate_largerScaleOutInsideTheCooldown_goesThroughAtOnce() {
    // AAS ScaleOutCooldown: "won't increase the desired capacity again unless either a larger
    // scale out is triggered or the cooldown period ends".
    SecondSamples load = new SecondSamples().set(0, 200, 12.0);
    ScalingEngine engine = new ScalingEngine(PLANNED);
    Fleet fleet = new Fleet(1, 1);

    fleet.run(engine, load, 0, 30);
    assertThat(fleet.desired).as("ceil(1 x 12 / 4)").isEqualTo(3);
    fleet.inService = 3;
    fleet.run(engine, load, 31, 31);

    assertThat(fleet.seconds()).as("1 s into the 30 s cooldown").containsExactly(30, 31);
    assertThat(fleet.desired).as("ceil(3 x 12 / 4) = 9, capped at max 5").isEqualTo(5);
  }

  @Test
  void evaluate_scaleOutNoLargerThanTheCooldownsOwn_isHeldUntilExactlyItsEnd() {
    SecondSamples load = new SecondSamples().set(0, 200, 12.0);
    ScalingEngine engine = new ScalingEngine(PLANNED);

    assertThat(engine.evaluate(T0_MS + 30_000, load, 1, 1, Suspension.NONE).desired()).isEqualTo(3);
    // desired came down to 2 (set directly); tracking proposes 3 again, no more than before
    ScalingDecision blocked = engine.evaluate(T0_MS + 59_000, load, 2, 1, Suspension.NONE);
    assertThat(blocked.changes()).isFalse();
    assertThat(blocked.cause()).contains("scale-out cooldown").contains("no larger than");

    assertThat(engine.evaluate(T0_MS + 60_000, load, 2, 1, Suspension.NONE).desired())
        .as("the cooldown is over")
        .isEqualTo(3);
  }

  @Test
  void evaluate_scaleOutEndsTheScaleInCooldown() {
    // AAS ScaleInCooldown: a scale-out during the scale-in cooldown happens at once, and the
    // scale-in that preceded it no longer holds the next scale-in back.
    SecondSamples load =
        new SecondSamples().set(0, 180, 1.0).set(180, 210, 20.0).set(210, 600, 1.0);
    ScalingEngine engine = new ScalingEngine(PLANNED);
    Fleet fleet = new Fleet(3, 3);

    fleet.run(engine, load, 0, 400);

    assertThat(fleet.changes)
        .extracting(c -> c.second() + " " + c.decision().direction())
        .as(
            "in at 180; out at 210 (inside the 120 s scale-in cooldown, which it ends); the"
                + " 60 s Average still in ALARM scales in at 211, not held to 300")
        .startsWith("180 IN", "210 OUT", "211 IN");
  }

  @Test
  void evaluate_scaleOutSuspended_keepsAlarmingButDoesNotAct() {
    SecondSamples load = new SecondSamples().set(0, 100, 6.0);
    ScalingEngine engine = new ScalingEngine(PLANNED);
    Fleet fleet = new Fleet(1, 1);
    fleet.suspension = new Suspension(false, true);

    fleet.run(engine, load, 0, 44);
    assertThat(engine.highAlarm()).isEqualTo(AlarmState.ALARM);
    assertThat(fleet.changes).isEmpty();

    fleet.suspension = Suspension.NONE;
    fleet.run(engine, load, 45, 50);

    assertThat(fleet.seconds()).as("acts the first second it is resumed").containsExactly(45);
  }

  @Test
  void evaluate_scaleInSuspended_doesNotRemoveInstances() {
    SecondSamples load = new SecondSamples().set(0, 400, 1.0);
    Fleet fleet = new Fleet(3, 3);
    fleet.suspension = new Suspension(true, false);
    ScalingEngine engine = new ScalingEngine(PLANNED);

    fleet.run(engine, load, 0, 400);

    assertThat(engine.lowAlarm()).isEqualTo(AlarmState.ALARM);
    assertThat(fleet.changes).isEmpty();
  }

  @Test
  void evaluate_sustainedLowAverage_removesOneAtATimeEveryCooldownDownToMin() {
    SecondSamples load = new SecondSamples().set(0, 1000, 1.0);
    Fleet fleet = new Fleet(4, 4);
    fleet.inServiceFollows = true;

    fleet.run(new ScalingEngine(PLANNED), load, 0, 1000);

    assertThat(fleet.seconds())
        .as("180 s of data, then every 120 s")
        .containsExactly(180, 300, 420);
    assertThat(fleet.changes).allMatch(s -> s.decision().direction() == Direction.IN);
    assertThat(fleet.desired).as("never below min").isEqualTo(1);
    assertThat(fleet.changes.getFirst().decision().cause())
        .isEqualTo("step scale-in: ConcurrentRequestsPerModel Average 1.00 <= 2.00 for 3 periods");
  }

  @Test
  void evaluate_averageExactlyAtScaleInThreshold_breaches() {
    SecondSamples load = new SecondSamples().set(0, 180, 2.0);
    ScalingEngine engine = new ScalingEngine(PLANNED);

    ScalingDecision d = engine.evaluate(T0_MS + 180_000, load, 2, 2, Suspension.NONE);

    assertThat(engine.lowAlarm()).isEqualTo(AlarmState.ALARM);
    assertThat(d.desired()).isEqualTo(1);
  }

  @Test
  void evaluate_averageJustAboveScaleInThreshold_keepsCapacity() {
    SecondSamples load = new SecondSamples().set(0, 180, 2.01);
    ScalingEngine engine = new ScalingEngine(PLANNED);

    ScalingDecision d = engine.evaluate(T0_MS + 180_000, load, 2, 2, Suspension.NONE);

    assertThat(engine.lowAlarm()).isEqualTo(AlarmState.OK);
    assertThat(d.direction()).isEqualTo(Direction.NONE);
  }

  @Test
  void evaluate_noDataInTheEvaluationRange_isInsufficientDataAndDoesNotAct() {
    SecondSamples load = new SecondSamples().set(0, 10, 9.0);
    ScalingEngine engine = new ScalingEngine(PLANNED);

    // 10 s periods, range 5: [10 s, 60 s) has no sample, the one datapoint fell out of the range
    ScalingDecision d = engine.evaluate(T0_MS + 60_000, load, 1, 1, Suspension.NONE);

    assertThat(engine.highAlarm()).isEqualTo(AlarmState.INSUFFICIENT_DATA);
    assertThat(engine.lowAlarm())
        .as("the scale-in alarm treats missing data as notBreaching")
        .isEqualTo(AlarmState.OK);
    assertThat(d.direction()).isEqualTo(Direction.NONE);
    assertThat(d.cause()).isEqualTo("high alarm INSUFFICIENT_DATA; low alarm OK");
  }

  @Test
  void evaluate_aGapInsideTheRange_scalesOutOnTheRealDatapointsAsCloudWatchDoes() {
    // - - 9 - 9 over the 5-period range: 2 real breaching points, the older 3 periods old;
    // CloudWatch's "premature alarm" rule puts a missing-treated alarm in ALARM
    SecondSamples load = new SecondSamples().set(0, 10, 9.0).set(20, 30, 9.0);
    ScalingEngine engine = new ScalingEngine(PLANNED);

    ScalingDecision d = engine.evaluate(T0_MS + 30_000, load, 1, 1, Suspension.NONE);

    assertThat(engine.highAlarm()).isEqualTo(AlarmState.ALARM);
    assertThat(engine.lowAlarm()).isEqualTo(AlarmState.OK);
    assertThat(d.direction()).isEqualTo(Direction.OUT);
  }

  @Test
  void evaluate_idleEndpointWithoutDatapoints_doesNotScaleIn() {
    // Two instances busy for a minute, then the metric stops (nothing published): the deployed
    // scale-in alarm (notBreaching) never reads the silence as quiet. Under the old breaching
    // treatment this scaled in.
    SecondSamples load = new SecondSamples().set(0, 60, 3.0).set(60, 600, Double.NaN);
    ScalingEngine engine = new ScalingEngine(PLANNED);

    for (int s = 60; s <= 600; s += 10) {
      ScalingDecision d = engine.evaluate(T0_MS + s * 1000L, load, 2, 2, Suspension.NONE);
      assertThat(d.direction()).as("at %d s", s).isEqualTo(Direction.NONE);
    }
    assertThat(engine.lowAlarm()).isEqualTo(AlarmState.OK);
    assertThat(engine.highAlarm()).isEqualTo(AlarmState.INSUFFICIENT_DATA);
  }

  @Test
  void evaluate_breachingTreatment_scalesInOnSilence() {
    // PLANNED's scale-in alarm: Average over 60 s x 3, range 5: at 360 s the busy minute is out
    SecondSamples load = new SecondSamples().set(0, 60, 3.0).set(60, 360, Double.NaN);
    StepScaleIn step = (StepScaleIn) PLANNED.scaleIn();
    ScalingEngine engine =
        new ScalingEngine(
            new ScalingRules(
                1, 5, PLANNED.tracking(), step.withTreatMissingData(TreatMissingData.BREACHING)));

    ScalingDecision d = engine.evaluate(T0_MS + 360_000, load, 2, 2, Suspension.NONE);

    assertThat(engine.lowAlarm()).isEqualTo(AlarmState.ALARM);
    assertThat(d.direction()).isEqualTo(Direction.IN);
    assertThat(d.cause()).endsWith("has no datapoint in the alarm's range, treated as breaching");
  }

  @Test
  void evaluate_noInstanceInService_scalesFromOne() {
    SecondSamples load = new SecondSamples().set(0, 30, 10.0);

    ScalingDecision d =
        new ScalingEngine(PLANNED).evaluate(T0_MS + 30_000, load, 1, 0, Suspension.NONE);

    assertThat(d.desired()).as("ceil(max(1, 0) x 10 / 4)").isEqualTo(3);
  }

  @Test
  void evaluate_spikyMaximumWithLowAverage_scaleOutWins() {
    SecondSamples load = new SecondSamples().set(0, 180, 0.5);
    for (int s = 150; s < 180; s += 10) {
      load.set(s, s + 1, 8.0);
    }
    ScalingEngine engine = new ScalingEngine(PLANNED);

    ScalingDecision d = engine.evaluate(T0_MS + 180_000, load, 2, 2, Suspension.NONE);

    assertThat(engine.highAlarm()).isEqualTo(AlarmState.ALARM);
    assertThat(engine.lowAlarm()).isEqualTo(AlarmState.ALARM);
    assertThat(d.direction()).isEqualTo(Direction.OUT);
    assertThat(d.desired()).as("ceil(2 x 8 / 4)").isEqualTo(4);
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 1_000, 9_999, 10_000, 60_000, 75_500, 150_000})
  void evaluate_publicationDelay_shiftsTheDecisionByExactlyTheDelay(long delayMs) {
    SecondSamples load = new SecondSamples().set(0, 400, 6.0).delay(delayMs);
    ScalingEngine engine = new ScalingEngine(PLANNED);
    long first = -1;
    for (long ms = 0; ms <= 400_000 && first < 0; ms += 500) {
      if (engine.evaluate(T0_MS + ms, load, 1, 1, Suspension.NONE).changes()) {
        first = ms;
      }
    }

    assertThat(first)
        .as("third period closes at 30 s, published %d ms later (to the 500 ms tick)", delayMs)
        .isEqualTo(30_000 + ceilTo(delayMs, 500));
  }

  private static long ceilTo(long ms, long step) {
    return (ms + step - 1) / step * step;
  }

  @Test
  void evaluate_publicationDelay_readsOnlyPublishedPeriods() {
    SecondSamples load = new SecondSamples().set(0, 400, 6.0).delay(65_000);

    new ScalingEngine(PLANNED).evaluate(T0_MS + 100_000, load, 1, 1, Suspension.NONE);

    assertThat(load.askedEndMs)
        .as("tracking ends at floor(35 s / 10 s) x 10 s, scale-in at floor(35 s / 60 s) x 60 s")
        .containsExactly(T0_MS + 30_000, T0_MS);
  }

  @Test
  void evaluate_simulatorClockFromZero_hasNoCooldownBeforeTheFirstAction() {
    SecondSamples load = new SecondSamples(0).set(0, 100, 6.0);
    ScalingRules rules =
        ScalingRules.planned(
            4, 2, 1, 5, Duration.ofSeconds(300), Duration.ofSeconds(300), ScaleInAlarm.AVERAGE_60S);

    ScalingDecision d = new ScalingEngine(rules).evaluate(30_000, load, 1, 1, Suspension.NONE);

    assertThat(d.direction()).isEqualTo(Direction.OUT);
  }
}
