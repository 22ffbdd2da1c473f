package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PolicyLagTest {
  static final String ENDPOINT = "speech-quickstart";

  static FakePlatform deployed() {
    return FakePlatform.deployedBehind(Recorded.quickstartPlan());
  }

  @Test
  void read_planDeployed_isTrackingPeriodTimesEvaluationsPlusScaleOutCooldown() {
    PolicyLag lag = PolicyLag.read(deployed(), ENDPOINT);

    assertThat(lag.seconds()).isEqualTo(10 * 3 + 30);
    assertThat(lag.source())
        .isEqualTo(
            "deployed policy speech-quickstart-target-tracking: 10 s period x 3 evaluation periods"
                + " + 30 s scale-out cooldown");
  }

  @Test
  void read_platformPublishesMetricsLate_addsItsDelayAndSaysSo() {
    FakePlatform p = deployed();
    p.physics =
        new dev.speechscale.platform.Physics(
            java.time.Duration.ofMillis(600),
            java.time.Duration.ofSeconds(60),
            java.time.Duration.ofMinutes(11));

    PolicyLag lag = PolicyLag.read(p, ENDPOINT);

    assertThat(lag.seconds()).isEqualTo(10 * 3 + 30 + 60);
    assertThat(lag.source()).endsWith("+ 60 s metric publication delay (the platform's)");
  }

  @Test
  void read_trackingAlarmWithMoreEvaluationPeriods_usesTheAlarmsCount() {
    FakePlatform p = deployed();
    p.trackingEvaluationPeriods = 5;

    assertThat(PolicyLag.read(p, ENDPOINT).seconds()).isEqualTo(10 * 5 + 30);
  }

  @Test
  void read_compressedLocalPeriodAndLongerCooldown_areBothRead() {
    FakePlatform p = deployed();
    p.trackingPeriodS = 2;
    p.scaleOutCooldownS = 45;

    PolicyLag lag = PolicyLag.read(p, ENDPOINT);

    assertThat(lag.seconds()).isEqualTo(2 * 3 + 45);
    assertThat(lag.source())
        .contains("2 s period x 3 evaluation periods + 45 s scale-out cooldown");
  }

  @Test
  void read_noAlarmOnTheTrackedMetric_assumesThreeEvaluationPeriods() {
    FakePlatform p = deployed();
    p.trackingAlarm = false;
    p.scaleInEvaluationPeriods = 7; // the scale-in alarm reads the Average: not the tracking alarm

    assertThat(PolicyLag.read(p, ENDPOINT).seconds()).isEqualTo(10 * 3 + 30);
  }

  @Test
  void read_anAlarmWithoutAMetricName_isSkippedNotAFailure() {
    FakePlatform p = deployed();
    p.trackingAlarm = false;
    p.scaleInMetric = null; // metric math: CloudWatch reports no metric name

    assertThat(PolicyLag.read(p, ENDPOINT).seconds()).isEqualTo(10 * 3 + 30);
  }

  @Test
  void read_noScalingAttached_isBoundedByThePolicyAPlanDeploysAndSaysWhy() {
    FakePlatform p =
        deployed().withoutScaling("no plan artifact (looked for plan-quickstart.json)");

    PolicyLag lag = PolicyLag.read(p, ENDPOINT);

    assertThat(lag.seconds()).isEqualTo(60);
    assertThat(lag.source())
        .isEqualTo(
            "no policy is deployed yet (no plan artifact (looked for plan-quickstart.json)), so"
                + " bounded by the policy a plan deploys: 10 s period x 3 evaluation periods + 30 s"
                + " scale-out cooldown");
  }

  @Test
  void read_targetWithoutATrackingPolicy_fallsBackToThePlanBound() {
    FakePlatform p = deployed();
    p.trackingPolicy = false;

    PolicyLag lag = PolicyLag.read(p, ENDPOINT);

    assertThat(lag.seconds()).isEqualTo(60);
    assertThat(lag.source()).startsWith("no policy is deployed yet");
  }

  @Test
  void read_eitherWay_agreesWithTheRecordedQuickstartBound() {
    double recorded = Recorded.quickstartTtotal().policyLagBoundS();

    assertThat(PolicyLag.read(deployed(), ENDPOINT).seconds()).isEqualTo(recorded);
    assertThat(PolicyLag.read(deployed().withoutScaling("none"), ENDPOINT).seconds())
        .isEqualTo(recorded);
  }
}
