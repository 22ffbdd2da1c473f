package dev.speechscale.platform;

import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The deployed scaling configuration of one endpoint.
 *
 * @param target the scalable target, empty when no scaling is attached
 * @param policies every policy on the endpoint's resource (orphans included)
 * @param alarms every alarm those policies use
 * @param reason why no scaling is attached, when {@code target} is empty (may be {@code null})
 */
public record ScalingState(
    Optional<ScalableTarget> target,
    List<ScalingPolicy> policies,
    List<Alarm> alarms,
    @Nullable String reason) {
  public ScalingState {
    policies = List.copyOf(policies);
    alarms = List.copyOf(alarms);
  }

  /** No scaling attached, and why. */
  public static ScalingState none(String reason) {
    return new ScalingState(Optional.empty(), List.of(), List.of(), reason);
  }

  /**
   * A scalable target.
   *
   * @param resourceId {@code endpoint/<name>/variant/<variant>}
   * @param minCapacity fewest instances
   * @param maxCapacity most instances
   * @param suspended the suspended flags
   * @param scheduledActions its scheduled actions (AWS DescribeScheduledActions), none by default
   */
  public record ScalableTarget(
      String resourceId,
      int minCapacity,
      int maxCapacity,
      SuspendedState suspended,
      List<ScheduledAction> scheduledActions) {
    public ScalableTarget {
      scheduledActions = scheduledActions == null ? List.of() : List.copyOf(scheduledActions);
    }

    /** A target without scheduled actions. */
    public ScalableTarget(
        String resourceId, int minCapacity, int maxCapacity, SuspendedState suspended) {
      this(resourceId, minCapacity, maxCapacity, suspended, List.of());
    }
  }
}
