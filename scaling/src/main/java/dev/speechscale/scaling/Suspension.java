package dev.speechscale.scaling;

/**
 * Application Auto Scaling's suspended flags ({@code SuspendedState}): a suspended direction of
 * dynamic scaling is not acted on, though its alarm is still evaluated; suspended scheduled scaling
 * applies no {@link ScheduledFloor}.
 *
 * @param dynamicScalingIn scale-in suspended
 * @param dynamicScalingOut scale-out suspended
 * @param scheduledScaling scheduled actions suspended
 */
public record Suspension(
    boolean dynamicScalingIn, boolean dynamicScalingOut, boolean scheduledScaling) {
  /** Nothing suspended. */
  public static final Suspension NONE = new Suspension(false, false, false);

  /** Everything suspended (what a measurement freezes). */
  public static final Suspension ALL = new Suspension(true, true, true);

  /** Dynamic scaling flags only; scheduled scaling runs. */
  public Suspension(boolean dynamicScalingIn, boolean dynamicScalingOut) {
    this(dynamicScalingIn, dynamicScalingOut, false);
  }
}
