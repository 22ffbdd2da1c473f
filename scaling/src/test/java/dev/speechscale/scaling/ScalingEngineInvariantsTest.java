package dev.speechscale.scaling;

import static dev.speechscale.scaling.SecondSamples.T0_MS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.MetricQuery.Metric;
import dev.speechscale.scaling.ScalingDecision.Direction;
import dev.speechscale.scaling.ScalingEngineTest.Fleet;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded random load (bursts, quiet spells, gaps without data) against both shapes; every decision
 * is checked against the rules it must obey, read back from the same samples.
 */
class ScalingEngineInvariantsTest {
  static Stream<Long> seeds() {
    return IntStream.rangeClosed(1, 24).mapToObj(i -> 0x5ca1eL * i);
  }

  private static SecondSamples randomLoad(SplittableRandom rnd, int seconds) {
    SecondSamples load = new SecondSamples();
    int s = 0;
    while (s < seconds) {
      int len = 5 + rnd.nextInt(240);
      double v = rnd.nextInt(10) == 0 ? Double.NaN : rnd.nextDouble(0, 12);
      load.set(s, Math.min(seconds, s + len), v);
      s += len;
    }
    return load;
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void evaluate_plannedRulesOnRandomLoad_obeyBoundsAlarmsAndCooldowns(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    ScalingRules rules =
        ScalingRules.planned(
            4,
            2,
            1,
            2 + rnd.nextInt(8),
            Duration.ofSeconds(30),
            Duration.ofSeconds(120),
            ScaleInAlarm.AVERAGE_60S);
    SecondSamples load = randomLoad(rnd, 3600).delay(rnd.nextInt(3) * 30_000L);
    Fleet fleet = new Fleet(1, 1);
    fleet.inServiceFollows = true;

    fleet.run(new ScalingEngine(rules), load, 0, 3600);

    check(rules, load, fleet.changes);
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void evaluate_trackingWithScaleInOnRandomLoad_obeyBoundsAlarmsAndCooldowns(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    ScalingRules rules =
        ScalingRules.targetTracking(
            Metric.CONCURRENT_REQUESTS_PER_MODEL,
            MetricStatistic.AVERAGE,
            Duration.ofSeconds(10),
            5,
            2,
            3 + rnd.nextInt(10),
            Duration.ofSeconds(20),
            Duration.ofSeconds(60));
    SecondSamples load = randomLoad(rnd, 3600);
    Fleet fleet = new Fleet(2, 2);
    fleet.inServiceFollows = true;

    fleet.run(new ScalingEngine(rules), load, 0, 3600);

    check(rules, load, fleet.changes);
  }

  private static void check(ScalingRules rules, SecondSamples load, List<Fleet.Step> changes) {
    assertThat(changes).as("the random load moves the fleet at least once").isNotEmpty();
    TargetTracking t = rules.tracking();
    long lastOut = Long.MIN_VALUE;
    long lastIn = Long.MIN_VALUE;
    int lastOutDesired = 0;
    for (Fleet.Step step : changes) {
      ScalingDecision d = step.decision();
      long nowMs = T0_MS + step.second() * 1000L;
      long visibleMs = nowMs - load.publicationDelayMs();
      assertThat(d.desired()).isBetween(rules.minCapacity(), rules.maxCapacity());
      if (d.direction() == Direction.OUT) {
        assertThat(
                visiblePeriods(
                    load, t.metric(), t.statistic(), t.period(), t.datapoints(), visibleMs))
            .as("every tracked period above target")
            .allMatch(v -> v > t.targetValue());
        if (lastOut != Long.MIN_VALUE && nowMs - lastOut < t.scaleOutCooldown().toMillis()) {
          assertThat(d.desired())
              .as("inside the scale-out cooldown only a larger scale-out goes through")
              .isGreaterThan(lastOutDesired);
        }
        lastOut = nowMs;
        lastOutDesired = d.desired();
        lastIn = Long.MIN_VALUE; // a scale-out ends the scale-in cooldown
      } else {
        assertThat(d.direction()).isEqualTo(Direction.IN);
        long cooldownMs =
            switch (rules.scaleIn()) {
              case StepScaleIn s -> {
                assertThat(
                        visiblePeriods(
                            load, s.metric(), s.statistic(), s.period(), s.datapoints(), visibleMs))
                    .allMatch(v -> v <= s.threshold());
                yield s.cooldown().toMillis();
              }
              case ScaleIn.Tracking tr -> {
                assertThat(
                        visiblePeriods(
                            load,
                            t.metric(),
                            t.statistic(),
                            t.period(),
                            tr.datapoints(),
                            visibleMs))
                    .allMatch(v -> v < tr.thresholdRatio() * t.targetValue());
                yield tr.cooldown().toMillis();
              }
              case ScaleIn.Disabled x -> throw new AssertionError("scale-in with none deployed");
            };
        if (lastIn != Long.MIN_VALUE) {
          assertThat(nowMs - lastIn).isGreaterThanOrEqualTo(cooldownMs);
        }
        lastIn = nowMs;
      }
    }
  }

  /**
   * The real datapoints the alarm evaluated when it decided: of the evaluation range ({@link
   * AlarmEvaluation#range}) ending at the last whole period visible at {@code visibleMs}, the
   * newest {@code datapoints} periods that have data (fewer when the range has fewer). An alarm in
   * ALARM under missing or notBreaching saw only breaching ones among them, and at least one.
   */
  private static List<Double> visiblePeriods(
      SecondSamples load,
      Metric metric,
      MetricStatistic statistic,
      Duration period,
      int datapoints,
      long visibleMs) {
    long periodMs = period.toMillis();
    double[] p =
        load.periods(
            metric,
            statistic,
            periodMs,
            AlarmEvaluation.range(datapoints),
            Math.floorDiv(visibleMs, periodMs) * periodMs);
    java.util.ArrayList<Double> real = new java.util.ArrayList<>();
    for (int i = p.length - 1; i >= 0 && real.size() < datapoints; i--) {
      if (!Double.isNaN(p[i])) {
        real.add(0, p[i]);
      }
    }
    assertThat(real).as("an alarm in ALARM under missing or notBreaching saw data").isNotEmpty();
    return real;
  }
}
