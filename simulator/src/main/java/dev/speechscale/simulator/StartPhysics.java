package dev.speechscale.simulator;

import java.time.Duration;
import java.util.Objects;

/**
 * How a scale-out's instances start beyond the measured start-up delay: the same two settings as
 * the local platform's {@code local.aws_physics} ({@code instance_start_jitter_s}, {@code
 * capacity_limit}), off by default. AWS publishes no figure for either (how much a SageMaker
 * instance's start varies, or how many instances of a type a Region can give an account), so both
 * are settings for exercising the failure paths, never AWS's numbers.
 *
 * <ul>
 *   <li>{@code jitter}: each new instance's start-up delay gets a uniform draw in {@code [0,
 *       jitter]} on top of the measured one, from its own stream seeded by the run's seed, so a run
 *       repeats and the arrivals and service times are those of a run without it.
 *   <li>{@code capacityLimit}: a scale-out past this many instances fails as SageMaker's does for
 *       want of capacity ("Unable to provision requested ML compute capacity due to
 *       InsufficientInstanceCapacity error", AWS re:Post knowledge center,
 *       "sagemaker-endpoint-creation-fail"): the instances past the limit are not started and
 *       desired falls back to what can run, as on the local platform ({@code Supervisor}); the
 *       scaling event's cause says so. 0 = no limit.
 * </ul>
 *
 * @param jitter the most a start may take beyond the measured delay (zero: none)
 * @param capacityLimit instances the Region can provision (0: no limit)
 */
public record StartPhysics(Duration jitter, int capacityLimit) {
  /** Neither: starts take the measured delay and never fail. */
  public static final StartPhysics NONE = new StartPhysics(Duration.ZERO, 0);

  /** SageMaker's FailureReason when it cannot provision an instance. */
  public static final String INSUFFICIENT_CAPACITY =
      "Unable to provision requested ML compute capacity due to InsufficientInstanceCapacity error";

  public StartPhysics {
    Objects.requireNonNull(jitter, "jitter");
    if (jitter.isNegative()) {
      throw new SimulatorException(
          "--instance-start-jitter (" + jitter + ") must be at least 0s; 0s turns it off");
    }
    if (capacityLimit < 0) {
      throw new SimulatorException(
          "--capacity-limit (" + capacityLimit + ") must be at least 0; 0 means no limit");
    }
  }

  /** Whether either setting is on. */
  public boolean on() {
    return !jitter.isZero() || capacityLimit > 0;
  }
}
