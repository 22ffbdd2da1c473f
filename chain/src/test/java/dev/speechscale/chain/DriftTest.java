package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.speechscale.artifacts.DriftArtifact.Item;
import dev.speechscale.artifacts.DriftArtifact.Severity;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.Statistic;
import dev.speechscale.platform.SuspendedState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code drift} against the recorded quickstart deployment: measured without scaling ({@code
 * endpoints.yaml}, no plan) and deployed behind its plan ({@code endpoints-planned.yaml}).
 */
class DriftTest {
  static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");
  static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  static final PlanArtifact PLAN = Recorded.quickstartPlan();
  static final String PLAN_SOURCE = "recorded-quickstart/plan-quickstart.json";

  /** Deployed behind the plan, with the config that names the plan's values. */
  static FakePlatform planned() {
    return FakePlatform.deployedBehind(PLAN);
  }

  /** Deployed for measurement: no plan, no scaling. */
  static FakePlatform unplanned() {
    return FakePlatform.deployedBehind(PLAN).withoutScaling("no plan artifact");
  }

  static List<Item> checkPlanned(FakePlatform p) {
    return check(p, Recorded.quickstartPlannedConfig(), PLAN);
  }

  static List<Item> checkUnplanned(FakePlatform p) {
    return check(p, Recorded.quickstartConfig(), null);
  }

  static List<Item> check(FakePlatform p, EndpointConfig config, PlanArtifact plan) {
    return Drift.check(new Drift.Inputs(p, config, plan, PLAN_SOURCE), CLOCK);
  }

  static List<String> checks(List<Item> items) {
    return items.stream().map(Item::check).toList();
  }

  // ---- clean ----

  @Test
  void check_deployedBehindItsPlan_isClean() {
    assertThat(checkPlanned(planned())).isEmpty();
  }

  @Test
  void check_measurementDeploymentWithoutPlanOrScaling_isClean() {
    assertThat(checkUnplanned(unplanned())).isEmpty();
  }

  @Test
  void check_recordedQuickstartDrift_wasCleanToo() {
    assertThat(Recorded.quickstartDrift().items()).isEqualTo(checkUnplanned(unplanned()));
  }

  // ---- the endpoint ----

  @Test
  void check_endpointNotInService_isAnError() {
    FakePlatform p = unplanned();
    p.status = EndpointStatus.UPDATING;

    assertThat(checkUnplanned(p))
        .containsExactly(
            new Item(
                "endpoint_status",
                Severity.ERROR,
                "IN_SERVICE",
                "UPDATING",
                "speech-quickstart is UPDATING; wait for InService or redeploy"));
  }

  @Test
  void check_capacityStillMoving_isAWarning() {
    FakePlatform p = planned();
    p.desiredInstances = 2;

    assertThat(checkPlanned(p))
        .containsExactly(
            new Item(
                "instance_counts",
                Severity.WARN,
                "desired = in service",
                "2 desired, 1 in service",
                "capacity is still moving; measure once it settles"));
  }

  @Test
  void check_otherInstanceTypeThanTheConfig_isAnError() {
    FakePlatform p = unplanned();
    p.instanceType = "local.1cpu";

    assertThat(checkUnplanned(p))
        .containsExactly(
            new Item(
                "instance_type",
                Severity.ERROR,
                "local.500mcpu",
                "local.1cpu",
                "the deployed instance type differs from the config; redeploy"));
  }

  @Test
  void check_otherContainerEnvThanTheConfig_isAnError() {
    FakePlatform p = unplanned();
    p.containerEnv = Map.of("FLITE_VOICE", "kal", "SEGMENTATION", "none");

    assertThat(checkUnplanned(p))
        .containsExactly(
            new Item(
                "container_env",
                Severity.ERROR,
                "{}",
                "{FLITE_VOICE=kal, SEGMENTATION=none}",
                "the deployed container environment differs from the config; redeploy"));
  }

  @Test
  void check_deployedEnvOtherThanThePlansFingerprint_isDriftAndOrphansTheScaling() {
    FakePlatform p = planned();
    p.containerEnv = Map.of("FLITE_VOICE", "kal");

    List<Item> items = checkPlanned(p);

    assertThat(checks(items)).containsExactly("container_env", "orphaned_target");
    Item orphaned = items.get(1);
    assertThat(orphaned.severity()).isEqualTo(Severity.ERROR);
    assertThat(orphaned.actual()).isEqualTo("endpoint/speech-quickstart/variant/AllTraffic");
    assertThat(orphaned.expected()).contains("none (" + PLAN_SOURCE + " was measured against");
  }

  // ---- scaling attached or not ----

  @Test
  void check_suspendedFlagsLeftByAKilledMeasurement_isAnErrorNamingThaw() {
    FakePlatform p = planned();
    p.suspended = SuspendedState.ALL;

    List<Item> items = checkPlanned(p);

    assertThat(checks(items)).containsExactly("suspended_flags");
    assertThat(items.getFirst().severity()).isEqualTo(Severity.ERROR);
    assertThat(items.getFirst().actual()).isEqualTo(SuspendedState.ALL.toString());
    assertThat(items.getFirst().detail()).endsWith("run `tts-bench thaw --model quickstart`");
  }

  @Test
  void check_planAllowsScalingButNoneIsAttached_isAnError() {
    FakePlatform p = planned().withoutScaling("the supervisor restarted without its plan");

    assertThat(checkPlanned(p))
        .containsExactly(
            new Item(
                "scalable_target",
                Severity.ERROR,
                "attached behind " + PLAN_SOURCE,
                "none",
                "the plan allows scaling but none is attached (the supervisor restarted without"
                    + " its plan); redeploy with the plan"));
  }

  @Test
  void check_scalingAttachedWithoutAPlan_isAnOrphanedTarget() {
    List<Item> items = checkUnplanned(planned());

    assertThat(checks(items)).containsExactly("orphaned_target");
    assertThat(items.getFirst().expected()).startsWith("none (no plan artifact (looked for");
    assertThat(items.getFirst().detail())
        .isEqualTo("scaling is attached without a matching plan; destroy and redeploy");
  }

  @Test
  void check_otherMinimumAndMaximum_areErrors() {
    FakePlatform p = planned();
    p.minCapacity = 2;
    p.maxCapacity = 4;

    assertThat(checkPlanned(p))
        .containsExactly(
            new Item(
                "min_capacity", Severity.ERROR, "1", "2", "the scalable target's minimum differs"),
            new Item(
                "max_capacity", Severity.ERROR, "2", "4", "the scalable target's maximum differs"));
  }

  @Test
  void check_scheduledFloorDiffersFromThePlan_isAnError() {
    PlanArtifact plan =
        PLAN.withScheduledFloors(
            List.of(
                new dev.speechscale.artifacts.ScheduledFloorEntry("08:00", 2),
                new dev.speechscale.artifacts.ScheduledFloorEntry("20:00", 1)));
    FakePlatform p = FakePlatform.deployedBehind(plan);
    EndpointConfig config = Recorded.quickstartPlannedConfig().withPlanValues(plan);
    p.scheduledActions =
        List.of(
            new dev.speechscale.platform.ScheduledAction(
                "floor-2000", "cron(0 20 * * ? *)", 1, null),
            new dev.speechscale.platform.ScheduledAction(
                "floor-0800", "cron(0 8 * * ? *)", 2, null));
    assertThat(check(p, config, plan)).as("deployed as planned").isEmpty();

    p.scheduledActions =
        List.of(
            new dev.speechscale.platform.ScheduledAction(
                "floor-0800", "cron(0 8 * * ? *)", 1, null),
            new dev.speechscale.platform.ScheduledAction(
                "floor-2000", "cron(0 20 * * ? *)", 1, null));

    assertThat(check(p, config, plan))
        .containsExactly(
            new Item(
                "scheduled_floors",
                Severity.ERROR,
                "08:00 min 2, 20:00 min 1",
                "08:00 min 1, 20:00 min 1",
                "the scalable target's scheduled actions (minimum-capacity floors) differ from the"
                    + " plan's scheduled_floors; redeploy"));
    assertThat(checks(checkPlanned(p)))
        .as("a plan without floors against deployed ones")
        .containsExactly("scheduled_floors");
  }

  // ---- policies ----

  /** Every setting the plan fixes, each moved off the plan alone: one finding, naming it. */
  static Stream<Arguments> oneSettingOffThePlan() {
    return Stream.of(
        Arguments.of(
            Named.of(
                "stepPolicyMissing_isAnError", (Consumer<FakePlatform>) p -> p.stepPolicy = false),
            new Item(
                "policies",
                Severity.ERROR,
                "1 target tracking + 1 step scale-in",
                "1 target tracking + 0 step",
                "orphaned or missing policies on the endpoint; destroy and redeploy")),
        Arguments.of(
            Named.of(
                "trackingTheAverage_isTheWrongMetric",
                (Consumer<FakePlatform>) p -> p.trackingStatistic = Statistic.AVERAGE),
            new Item(
                "tracking_metric",
                Severity.ERROR,
                "ConcurrentRequestsPerModel Maximum",
                "ConcurrentRequestsPerModel AVERAGE",
                "the policy tracks the wrong metric")),
        Arguments.of(
            Named.of(
                "otherTargetValue_isAnErrorToThreeDecimals",
                (Consumer<FakePlatform>) p -> p.targetValue = 0.713),
            new Item(
                "target_value",
                Severity.ERROR,
                "7.503",
                "0.713",
                "the deployed target differs from the plan")),
        Arguments.of(
            Named.of(
                "trackingMayScaleIn_isAnError",
                (Consumer<FakePlatform>) p -> p.disableScaleIn = false),
            new Item(
                "disable_scale_in",
                Severity.ERROR,
                "true",
                "false",
                "target tracking may scale in; only the step policy should")),
        Arguments.of(
            Named.of(
                "otherScaleOutCooldown_isAnError",
                (Consumer<FakePlatform>) p -> p.scaleOutCooldownS = 300),
            new Item(
                "scale_out_cooldown",
                Severity.ERROR,
                "30s",
                "300s",
                "the deployed scale-out cooldown differs")),
        Arguments.of(
            Named.of(
                "otherScaleInCooldown_isAnError",
                (Consumer<FakePlatform>) p -> p.scaleInCooldownS = 30),
            new Item(
                "scale_in_cooldown",
                Severity.ERROR,
                "300s",
                "30s",
                "the deployed scale-in cooldown differs")),
        Arguments.of(
            Named.of(
                "stepPolicyWithoutItsAlarm_neverFires",
                (Consumer<FakePlatform>) p -> p.scaleInAlarm = false),
            new Item(
                "scale_in_alarm",
                Severity.ERROR,
                "an alarm driving speech-quickstart-step-scale-in",
                "none",
                "the step scale-in policy has no alarm; it never fires")),
        Arguments.of(
            Named.of(
                "otherScaleInThreshold_isAnError",
                (Consumer<FakePlatform>) p -> p.scaleInThreshold = 5.0),
            new Item(
                "scale_in_threshold",
                Severity.ERROR,
                "5.003",
                "5.000",
                "the scale-in alarm's threshold differs from the plan")),
        Arguments.of(
            Named.of(
                "scaleInAlarmOnTheMaximum_readsTheWrongStatistic",
                (Consumer<FakePlatform>) p -> p.scaleInStatistic = Statistic.MAXIMUM),
            new Item(
                "scale_in_statistic",
                Severity.ERROR,
                "Average over 3 periods",
                "MAXIMUM over 3",
                "the scale-in alarm reads the wrong statistic")),
        Arguments.of(
            Named.of(
                "alarmWithoutDataWhileTheMetricPublishes_warnsItNeedsTime",
                (Consumer<FakePlatform>)
                    p -> {
                      p.scaleInAlarmState = Alarm.AlarmState.INSUFFICIENT_DATA;
                      p.concurrency.add(new MetricSeries.Datapoint(NOW.minusSeconds(60), 1.0));
                    }),
            new Item(
                "alarm_data",
                Severity.WARN,
                "OK or ALARM",
                "INSUFFICIENT_DATA",
                "alarm speech-quickstart-scale-in has no decision yet (the metric publishes; it"
                    + " needs 180 s of data)")));
  }

  @ParameterizedTest
  @MethodSource("oneSettingOffThePlan")
  void check_oneSettingOffThePlan_isTheOneFindingNamingIt(
      Consumer<FakePlatform> change, Item expected) {
    FakePlatform p = planned();
    change.accept(p);

    assertThat(checkPlanned(p)).containsExactly(expected);
  }

  @Test
  void check_trackingPolicyMissing_isAnErrorAndTheStepIsStillCompared() {
    FakePlatform p = planned();
    p.trackingPolicy = false;
    p.scaleInCooldownS = 600;

    assertThat(checks(checkPlanned(p))).containsExactly("policies", "scale_in_cooldown");
  }

  @Test
  void check_orphanedSecondTrackingPolicy_isAnError() {
    FakePlatform p = planned();
    p.extraPolicies.add(
        new ScalingPolicy.TargetTracking(
            "left-over", "ConcurrentRequestsPerModel", Statistic.MAXIMUM, 10, 3.0, 30, 0, true));

    List<Item> items = checkPlanned(p);

    assertThat(checks(items)).containsExactly("policies");
    assertThat(items.getFirst().actual()).isEqualTo("2 target tracking + 1 step");
  }

  @Test
  void check_trackingAnotherMetric_isTheWrongMetric() {
    FakePlatform p = planned();
    p.trackingMetric = "InvocationsPerInstance";

    assertThat(checks(checkPlanned(p))).containsExactly("tracking_metric");
  }

  // ---- the scale-in alarm ----

  @Test
  void check_scaleInAlarmOverOnePeriod_readsTheWrongStatistic() {
    FakePlatform p = planned();
    p.scaleInEvaluationPeriods = 1;

    List<Item> items = checkPlanned(p);

    assertThat(checks(items)).containsExactly("scale_in_statistic");
    assertThat(items.getFirst().actual()).isEqualTo("AVERAGE over 1");
  }

  @Test
  void check_scaleInAlarmTreatingMissingDataAsBreaching_isDrift() {
    FakePlatform p = planned();
    p.scaleInTreatMissingData = "breaching";

    List<Item> items = checkPlanned(p);

    assertThat(checks(items)).containsExactly("scale_in_treat_missing_data");
    assertThat(items.getFirst().expected()).isEqualTo("notBreaching");
    assertThat(items.getFirst().actual()).isEqualTo("breaching");
  }

  @Test
  void check_scaleInAlarmStatingNoTreatment_isCloudWatchsMissing() {
    FakePlatform p = planned();
    p.scaleInTreatMissingData = null;

    List<Item> items = checkPlanned(p);

    assertThat(checks(items)).containsExactly("scale_in_treat_missing_data");
    assertThat(items.getFirst().actual()).isEqualTo("missing");
  }

  @Test
  void check_configNamesMaximum10sButTheFleetRunsTheAverage_isTheScaleInStatistic() {
    PlanArtifact plan =
        PLAN.withScaleInAlarm(
            dev.speechscale.artifacts.ScaleInAlarmChoice.MAXIMUM_10S,
            PLAN.verdict(),
            PLAN.findings(),
            "test");

    List<Item> items = check(planned(), Recorded.quickstartPlannedConfig(), plan);

    assertThat(checks(items)).containsExactly("scale_in_statistic");
    assertThat(items.getFirst().expected()).isEqualTo("Maximum over 3 periods");
  }

  @Test
  void check_alarmWithoutData_looksAtTheAlarmsMetricOverTwiceItsEvaluationTime() {
    FakePlatform p = planned();
    p.scaleInAlarmState = Alarm.AlarmState.INSUFFICIENT_DATA;

    checkPlanned(p);

    assertThat(p.metricQueries)
        .containsExactly(
            new MetricQuery(
                MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL,
                Statistic.AVERAGE,
                Duration.ofSeconds(60),
                NOW.minusSeconds(360),
                NOW));
  }

  @Test
  void check_alarmWithoutDataOnAStatisticDriftCannotRead_warnsWithoutQueryingTheMetric() {
    FakePlatform p = planned();
    p.scaleInAlarmState = Alarm.AlarmState.INSUFFICIENT_DATA;
    p.scaleInStatistic = null; // e.g. p99 on AWS: the platform cannot name it

    List<Item> items = checkPlanned(p);

    assertThat(p.metricQueries).isEmpty();
    assertThat(items)
        .contains(
            new Item(
                "alarm_data",
                Severity.WARN,
                "OK or ALARM",
                "INSUFFICIENT_DATA",
                "alarm speech-quickstart-scale-in has no decision yet, and it evaluates a statistic"
                    + " drift cannot read, so whether its metric publishes is unknown"));
  }

  @Test
  void check_alarmWithoutDataOnASilentMetric_warnsItNeverFires() {
    FakePlatform p = planned();
    p.trackingAlarmState = Alarm.AlarmState.INSUFFICIENT_DATA;
    p.concurrency.add(new MetricSeries.Datapoint(NOW.minusSeconds(61), 1.0)); // before the window

    assertThat(checkPlanned(p))
        .containsExactly(
            new Item(
                "alarm_data",
                Severity.WARN,
                "OK or ALARM",
                "INSUFFICIENT_DATA",
                "alarm TargetTracking-speech-quickstart-AlarmHigh has no decision yet and its"
                    + " metric published nothing in the last 60 s: a policy whose metric publishes"
                    + " nothing never fires"));
  }

  @Test
  void check_alarmsInAlarmState_areNotDrift() {
    FakePlatform p = planned();
    p.trackingAlarmState = Alarm.AlarmState.ALARM;
    p.scaleInAlarmState = Alarm.AlarmState.ALARM;

    assertThat(checkPlanned(p)).isEmpty();
  }

  // ---- desired capacity against the config ----

  /** The quickstart's measurement config with another floor, as a 2-instance endpoint has. */
  static EndpointConfig withMinInstances(EndpointConfig c, int min) {
    return new EndpointConfig(
        c.modelName(),
        c.engine(),
        c.engineSettings(),
        c.instanceType(),
        min,
        Math.max(min, c.maxInstances()),
        c.scalingTargetValue(),
        c.scaleInThreshold(),
        c.scaleOutCooldownS(),
        c.scaleInCooldownS(),
        null,
        c.ttfabSloMs(),
        c.queueMaxDepth(),
        c.containerEnv(),
        c.local(),
        c.aws(),
        null,
        null);
  }

  @Test
  void check_noScalingAndCapacityLeftPinnedBelowTheFloor_isAnErrorPointingToThaw() {
    // min_instances 2, no plan: a killed qmax left desired at 1, and it has settled there
    FakePlatform p = unplanned();
    p.desiredInstances = 1;
    p.currentInstances = 1;

    assertThat(check(p, withMinInstances(Recorded.quickstartConfig(), 2), null))
        .containsExactly(
            new Item(
                "desired_capacity",
                Severity.ERROR,
                "2 (min_instances; no scaling attached)",
                "1",
                "desired capacity is 1 but without scaling attached it must equal min_instances"
                    + " (2); a killed qmax or ttotal run leaves capacity pinned: run `tts-bench"
                    + " thaw --model quickstart --desired 2`"));
  }

  @Test
  void check_noScalingAndCapacityLeftRaisedAboveTheFloor_isAnErrorPointingToThaw() {
    // a killed ttotal raised desired by one
    FakePlatform p = unplanned();
    p.desiredInstances = 2;
    p.currentInstances = 2;

    assertThat(checkUnplanned(p))
        .extracting(Item::check, Item::severity, Item::actual)
        .containsExactly(tuple("desired_capacity", Severity.ERROR, "2"));
    assertThat(checkUnplanned(p).getFirst().detail())
        .endsWith("run `tts-bench thaw --model quickstart --desired 1`");
  }

  @Test
  void check_scalingAttachedAndDesiredWithinMinMax_isClean() {
    FakePlatform p = planned();
    p.desiredInstances = PLAN.maxInstances();
    p.currentInstances = PLAN.maxInstances();

    assertThat(checkPlanned(p)).isEmpty();
  }

  @Test
  void check_scalingAttachedAndDesiredAboveMax_isAnErrorPointingToThaw() {
    FakePlatform p = planned();
    p.desiredInstances = PLAN.maxInstances() + 1;
    p.currentInstances = PLAN.maxInstances() + 1;

    assertThat(checkPlanned(p))
        .containsExactly(
            new Item(
                "desired_capacity",
                Severity.ERROR,
                "within [1, 2] (min_instances, max_instances)",
                "3",
                "desired capacity is 3 but the config bounds it to [1, 2]; a killed qmax or"
                    + " ttotal run leaves capacity pinned: run `tts-bench thaw --model quickstart"
                    + " --desired 2`"));
  }

  // ---- order ----

  @Test
  void check_warningsAndErrors_putErrorsFirstInTheOrderFound() {
    FakePlatform p = planned();
    p.desiredInstances = 2;
    p.scaleInAlarmState = Alarm.AlarmState.INSUFFICIENT_DATA;
    p.minCapacity = 2;
    p.disableScaleIn = false;

    assertThat(checkPlanned(p))
        .extracting(Item::check, Item::severity)
        .containsExactly(
            tuple("min_capacity", Severity.ERROR),
            tuple("disable_scale_in", Severity.ERROR),
            tuple("instance_counts", Severity.WARN),
            tuple("alarm_data", Severity.WARN));
  }
}
