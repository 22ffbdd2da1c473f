package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.DriftArtifact;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.ScalingMetricChoice;
import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.MetricQuery.Metric;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.Statistic;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code drift} of a plan whose {@code scaling_metric} is InvocationsPerInstance. */
class DriftInvocationsTest {
  private static final EndpointConfig WANT =
      Recorded.quickstartPlannedConfig()
          .withPlanValues(DriftTest.PLAN)
          .withScalingMetric(ScalingMetricChoice.INVOCATIONS_PER_INSTANCE);

  private static ScalingPolicy.TargetTracking tracking(
      String metric, Statistic statistic, boolean disableScaleIn, int inCooldownS) {
    return new ScalingPolicy.TargetTracking(
        "e-target-tracking",
        metric,
        statistic,
        60,
        WANT.scalingTargetValue(),
        WANT.scaleOutCooldownS(),
        inCooldownS,
        disableScaleIn);
  }

  private static List<String> drift(List<ScalingPolicy> policies) {
    List<DriftArtifact.Item> items = new ArrayList<>();
    DriftPolicies.comparePolicies(
        items, WANT, new ScalingState(Optional.empty(), policies, List.<Alarm>of(), "test"));
    return items.stream().map(DriftArtifact.Item::check).toList();
  }

  @Test
  void oneTrackingPolicyOnInvocationsPerInstanceScalingInItself_isClean() {
    assertThat(
            drift(
                List.of(
                    tracking(
                        Metric.INVOCATIONS_PER_INSTANCE.cloudWatchName(),
                        Statistic.SUM,
                        false,
                        WANT.scaleInCooldownS()))))
        .isEmpty();
  }

  @Test
  void theConcurrencyPairDeployedInstead_isTheWrongMetricAndScaleInDisabled() {
    assertThat(
            drift(
                List.of(
                    tracking(
                        Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName(),
                        Statistic.MAXIMUM,
                        true,
                        0),
                    new ScalingPolicy.StepScaling(
                        "e-step-scale-in",
                        "ChangeInCapacity",
                        List.of(new ScalingPolicy.Step(null, 0.0, -1)),
                        WANT.scaleInCooldownS(),
                        List.of("e-scale-in")))))
        .containsExactly("policies", "tracking_metric", "disable_scale_in", "scale_in_cooldown");
  }

  @Test
  void anotherScaleInCooldown_isDrift() {
    assertThat(
            drift(
                List.of(
                    tracking(
                        Metric.INVOCATIONS_PER_INSTANCE.cloudWatchName(),
                        Statistic.SUM,
                        false,
                        WANT.scaleInCooldownS() + 60))))
        .containsExactly("scale_in_cooldown");
  }
}
