package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.ValidateArtifact.Check;
import dev.speechscale.artifacts.ValidateArtifact.Result;
import dev.speechscale.platform.Statistic;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code validate}'s static checks: the deployed policy against the recorded quickstart plan. */
class ValidateRunTest {
  static final PlanArtifact PLAN = Recorded.quickstartPlan();
  static final String ENDPOINT = "speech-quickstart";

  static FakePlatform deployed() {
    return FakePlatform.deployedBehind(PLAN);
  }

  static List<Check> checks(FakePlatform p) {
    return ValidateRun.staticChecks(p, ENDPOINT, PLAN);
  }

  static Check named(List<Check> checks, String name) {
    return checks.stream()
        .filter(c -> c.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no check " + name + " in " + checks));
  }

  static List<String> names(List<Check> checks) {
    return checks.stream().map(Check::name).toList();
  }

  @Test
  void staticChecks_deployedAsPlanned_areTheRecordedQuickstartsStaticChecks() {
    List<Check> recorded = Recorded.quickstartValidate().checks();

    assertThat(checks(deployed()))
        .containsExactlyElementsOf(
            recorded.stream().filter(c -> !c.name().startsWith("live_")).toList());
  }

  @Test
  void staticChecks_deployedAsPlanned_areAllOk() {
    assertThat(checks(deployed())).extracting(Check::result).containsOnly(Result.OK);
  }

  /**
   * Each deployed setting moved off the plan alone: its check fails (or warns), naming both values.
   */
  static Stream<Arguments> oneSettingOffThePlan() {
    return Stream.of(
        Arguments.of(
            Named.of(
                "otherImageDigest_failTheFingerprintNamingBothSlugs",
                (Consumer<FakePlatform>) p -> p.imageDigest = "sha256:deadbeef00"),
            new Check(
                "fingerprint",
                Result.FAIL,
                "local500mcpu-797ff86f",
                "local500mcpu-deadbeef",
                "the plan was measured against another deployment")),
        Arguments.of(
            Named.of(
                "otherMinimum_failMinInstances", (Consumer<FakePlatform>) p -> p.minCapacity = 2),
            new Check("min_instances", Result.FAIL, "1", "2", "deployed 2 but the plan says 1")),
        Arguments.of(
            Named.of(
                "otherMaximum_failMaxInstances", (Consumer<FakePlatform>) p -> p.maxCapacity = 5),
            new Check("max_instances", Result.FAIL, "2", "5", "deployed 5 but the plan says 2")),
        Arguments.of(
            Named.of(
                "otherTargetValue_failShowingBothValues",
                (Consumer<FakePlatform>) p -> p.targetValue = 10),
            new Check(
                "scaling_target_value",
                Result.FAIL,
                "7.503",
                "10",
                "deployed 10 but the plan says 7.503")),
        Arguments.of(
            Named.of(
                "scaleInEnabledOnTargetTracking_fail",
                (Consumer<FakePlatform>) p -> p.disableScaleIn = false),
            new Check(
                "disable_scale_in",
                Result.FAIL,
                "true",
                "false",
                "target tracking may scale in; only the step policy should")),
        Arguments.of(
            Named.of(
                "otherScaleOutCooldown_fail",
                (Consumer<FakePlatform>) p -> p.scaleOutCooldownS = 60),
            new Check(
                "scale_out_cooldown_s",
                Result.FAIL,
                "30",
                "60",
                "deployed 60 but the plan says 30")),
        Arguments.of(
            Named.of(
                "otherScaleInCooldown_fail",
                (Consumer<FakePlatform>) p -> p.scaleInCooldownS = 120),
            new Check(
                "scale_in_cooldown_s",
                Result.FAIL,
                "300",
                "120",
                "deployed 120 but the plan says 300")),
        Arguments.of(
            Named.of(
                "otherScaleInThreshold_fail",
                (Consumer<FakePlatform>) p -> p.scaleInThreshold = 4.5),
            new Check(
                "scale_in_threshold",
                Result.FAIL,
                "5.003",
                "4.500",
                "deployed 4.500 but the plan says" + " 5.003")),
        Arguments.of(
            Named.of(
                "scaleInAlarmOnTheMaximum_fail",
                (Consumer<FakePlatform>) p -> p.scaleInStatistic = Statistic.MAXIMUM),
            new Check(
                "scale_in_alarm",
                Result.FAIL,
                "Average, 3 periods",
                "MAXIMUM, 3 periods",
                "the scale-in alarm reads another statistic than the plan's scale_in_alarm"
                    + " (average_60s); another statistic can undo target tracking's scale-out"
                    + " (policy_conflict)")),
        Arguments.of(
            Named.of(
                "unboundedContainerQueue_failTheQueueDepth",
                (Consumer<FakePlatform>) p -> p.queueBound = OptionalInt.of(0)),
            new Check(
                "queue_max_depth", Result.FAIL, "10", "0", "deployed 0 but the plan says 10")),
        Arguments.of(
            Named.of(
                "platformCannotTellTheQueueBound_warn",
                (Consumer<FakePlatform>) p -> p.queueBound = OptionalInt.empty()),
            new Check(
                "queue_max_depth",
                Result.WARN,
                "10",
                "unknown",
                "the platform does not report the container's queue bound")));
  }

  @ParameterizedTest
  @MethodSource("oneSettingOffThePlan")
  void staticChecks_oneSettingOffThePlan_isFlaggedByItsCheck(
      Consumer<FakePlatform> change, Check expected) {
    FakePlatform p = deployed();
    change.accept(p);

    assertThat(named(checks(p), expected.name())).isEqualTo(expected);
  }

  @Test
  void staticChecks_otherContainerEnv_failTheFingerprintThoughTheSlugsAgree() {
    FakePlatform p = deployed();
    p.containerEnv = Map.of("FLITE_VOICE", "kal");

    Check c = named(checks(p), "fingerprint");

    assertThat(c.result()).isEqualTo(Result.FAIL);
    assertThat(c.expected()).isEqualTo(c.actual()).isEqualTo("local500mcpu-797ff86f");
  }

  @Test
  void staticChecks_otherInstanceType_failTheFingerprint() {
    FakePlatform p = deployed();
    p.instanceType = "local.1cpu";

    Check c = named(checks(p), "fingerprint");

    assertThat(c.result()).isEqualTo(Result.FAIL);
    assertThat(c.actual()).isEqualTo("local1cpu-797ff86f");
  }

  @Test
  void staticChecks_noScalableTarget_failAndStopThere() {
    FakePlatform p =
        deployed().withoutScaling("no plan artifact (looked for plan-quickstart.json)");

    List<Check> checks = checks(p);

    assertThat(names(checks)).containsExactly("fingerprint", "scalable_target");
    assertThat(checks.get(1))
        .isEqualTo(
            new Check(
                "scalable_target",
                Result.FAIL,
                "attached",
                "none",
                "no scaling is attached: no plan artifact (looked for plan-quickstart.json)"));
  }

  @Test
  void staticChecks_noTargetTrackingPolicy_failTheTargetAndSkipItsOtherChecks() {
    FakePlatform p = deployed();
    p.trackingPolicy = false;

    List<Check> checks = checks(p);

    assertThat(named(checks, "scaling_target_value"))
        .isEqualTo(
            new Check(
                "scaling_target_value", Result.FAIL, "7.503", "none", "no target tracking policy"));
    assertThat(names(checks)).doesNotContain("scale_out_cooldown_s", "disable_scale_in");
  }

  @Test
  void staticChecks_targetWithinOneMillionth_isOk() {
    FakePlatform p = deployed();
    p.targetValue = 7.503 + 5e-7;

    assertThat(named(checks(p), "scaling_target_value").result()).isEqualTo(Result.OK);
  }

  @Test
  void staticChecks_noStepPolicy_failTheScaleInThresholdAndSkipItsOtherChecks() {
    FakePlatform p = deployed();
    p.stepPolicy = false;

    List<Check> checks = checks(p);

    assertThat(named(checks, "scale_in_threshold"))
        .isEqualTo(
            new Check(
                "scale_in_threshold", Result.FAIL, "5.003", "none", "no step scale-in policy"));
    assertThat(names(checks)).doesNotContain("scale_in_cooldown_s", "scale_in_alarm");
  }

  @Test
  void staticChecks_stepPolicyWithoutItsAlarm_failTheThresholdAndSkipTheAlarmCheck() {
    FakePlatform p = deployed();
    p.scaleInAlarm = false;

    List<Check> checks = checks(p);

    assertThat(named(checks, "scale_in_threshold"))
        .isEqualTo(
            new Check(
                "scale_in_threshold",
                Result.FAIL,
                "5.003",
                "none",
                "the step policy has no alarm"));
    assertThat(names(checks)).doesNotContain("scale_in_alarm");
  }

  @Test
  void staticChecks_scaleInAlarmOverTwoPeriods_fail() {
    FakePlatform p = deployed();
    p.scaleInEvaluationPeriods = 2;

    Check c = named(checks(p), "scale_in_alarm");

    assertThat(c.result()).isEqualTo(Result.FAIL);
    assertThat(c.actual()).isEqualTo("AVERAGE, 2 periods");
  }

  @Test
  void staticChecks_planWritesMaximum10sButTheFleetRunsTheAverage_fail() {
    PlanArtifact plan =
        PLAN.withScaleInAlarm(
            dev.speechscale.artifacts.ScaleInAlarmChoice.MAXIMUM_10S,
            PLAN.verdict(),
            PLAN.findings(),
            "test");

    Check c = named(ValidateRun.staticChecks(deployed(), ENDPOINT, plan), "scale_in_alarm");

    assertThat(c.result()).isEqualTo(Result.FAIL);
    assertThat(c.expected()).isEqualTo("Maximum, 3 periods");
    assertThat(c.detail()).contains("policy_conflict");
  }

  @Test
  void staticChecks_scaleInAlarmWithACompressedLocalPeriod_isOk() {
    FakePlatform p = deployed();
    p.scaleInPeriodS = 6; // a local endpoint with time_scale 0.1

    Check c = named(checks(p), "scale_in_alarm");

    assertThat(c.result()).isEqualTo(Result.OK);
    assertThat(c.actual()).isEqualTo("AVERAGE, 3 periods of 6 s");
  }

  @Test
  void staticChecks_otherQueueBound_fail() {
    FakePlatform p = deployed();
    p.queueBound = OptionalInt.of(50);

    assertThat(named(checks(p), "queue_max_depth").result()).isEqualTo(Result.FAIL);
  }

  @Test
  void staticChecks_severalDrifts_eachFailsOnItsOwn() {
    FakePlatform p = deployed();
    p.minCapacity = 2;
    p.scaleOutCooldownS = 60;
    p.queueBound = OptionalInt.of(0);

    assertThat(checks(p))
        .filteredOn(c -> c.result() == Result.FAIL)
        .extracting(Check::name)
        .containsExactly("min_instances", "scale_out_cooldown_s", "queue_max_depth");
  }
}
