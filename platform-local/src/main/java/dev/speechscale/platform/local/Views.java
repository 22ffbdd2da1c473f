package dev.speechscale.platform.local;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The control API's JSON shapes, shared by the supervisor (writer) and LocalPlatform (reader). */
public final class Views {
  private Views() {}

  /**
   * An endpoint's description.
   *
   * @param name endpoint name
   * @param status EndpointStatus name
   * @param desired desired instances
   * @param current in-service instances
   * @param instanceType local.&lt;n&gt;cpu
   * @param failure why the endpoint failed, or {@code null}
   */
  public record Describe(
      String name,
      String status,
      int desired,
      int current,
      String instanceType,
      @Nullable String failure) {}

  /**
   * The deployed scaling state.
   *
   * @param attached whether policies are attached
   * @param reason the gate's reason
   * @param resourceId the scalable target's id
   * @param min fewest instances
   * @param max most instances
   * @param suspendedIn dynamic scale-in suspended
   * @param suspendedOut dynamic scale-out suspended
   * @param suspendedScheduled scheduled scaling suspended
   * @param targetValue target tracking target
   * @param trackingPeriodS its period in seconds
   * @param trackingEvaluationPeriods datapoints that must breach
   * @param scaleOutCooldownS scale-out cooldown
   * @param scaleInThreshold step scale-in alarm threshold
   * @param scaleInPeriodS its period in seconds
   * @param scaleInStatistic its statistic ({@code Maximum} or {@code Average}, the plan's
   *     scale_in_alarm); {@code null} from a supervisor older than it, which deployed Average
   * @param scaleInEvaluationPeriods datapoints that must breach
   * @param scaleInCooldownS scale-in cooldown
   * @param highAlarmState the tracking alarm's state
   * @param lowAlarmState the scale-in alarm's state
   * @param activities recent scaling activities
   * @param scheduledFloors the scheduled actions raising MinCapacity, by name; {@code null} from a
   *     supervisor older than them
   * @param scaleInTreatMissingData the scale-in alarm's TreatMissingData as deployed ({@code
   *     notBreaching}); {@code null} when no policy is attached or from an older supervisor
   */
  public record Scaling(
      boolean attached,
      String reason,
      @Nullable String resourceId,
      int min,
      int max,
      boolean suspendedIn,
      boolean suspendedOut,
      boolean suspendedScheduled,
      double targetValue,
      int trackingPeriodS,
      int trackingEvaluationPeriods,
      int scaleOutCooldownS,
      double scaleInThreshold,
      int scaleInPeriodS,
      @Nullable String scaleInStatistic,
      int scaleInEvaluationPeriods,
      int scaleInCooldownS,
      @Nullable String highAlarmState,
      @Nullable String lowAlarmState,
      List<Activity> activities,
      @Nullable List<Floor> scheduledFloors,
      @Nullable String scaleInTreatMissingData) {}

  /**
   * A scheduled minimum-capacity floor as the control API shows and takes it.
   *
   * @param name the scheduled action's name ({@code floor-HHMM} for a deployed one)
   * @param at UTC time of day, HH:MM
   * @param minCapacity the minimum from then on
   */
  public record Floor(String name, String at, int minCapacity) {}

  /**
   * A scheduled action to delete.
   *
   * @param name its name
   */
  public record FloorName(String name) {}

  /**
   * A scaling activity.
   *
   * @param at when
   * @param from desired before
   * @param to desired after
   * @param cause why
   */
  public record Activity(Instant at, int from, int to, String cause) {}

  /**
   * Everything {@code status} shows.
   *
   * @param describe the description
   * @param scaling the scaling state
   * @param instances every instance, stopped ones included
   * @param routerPort the router's port
   * @param supervisorPid the supervisor's pid
   * @param publishedAt when this was published
   */
  public record Status(
      Describe describe,
      Scaling scaling,
      List<LocalState.InstanceRecord> instances,
      int routerPort,
      long supervisorPid,
      Instant publishedAt) {}

  /**
   * Suspended flags as posted.
   *
   * @param dynamicScalingIn scale-in suspended
   * @param dynamicScalingOut scale-out suspended
   * @param scheduledScaling scheduled actions suspended
   */
  public record Suspended(
      boolean dynamicScalingIn, boolean dynamicScalingOut, boolean scheduledScaling) {}

  /**
   * A desired count as posted.
   *
   * @param count instances
   */
  public record Desired(int count) {}

  /**
   * {@code GET /calls}: the control API's calls per {@code METHOD /path} since the supervisor
   * started, and how many of them were throttled; {@code /calls} itself is not counted.
   */
  public record Calls(Map<String, Long> calls, Map<String, Long> throttles) {}

  /**
   * Datapoints.
   *
   * @param points [epoch millis, value] pairs
   */
  public record Points(List<double[]> points) {}

  /**
   * An error the control API answers with.
   *
   * @param error what went wrong
   */
  public record Error(@Nullable String error) {}
}
