package dev.speechscale.platform;

/**
 * Application Auto Scaling's suspended flags.
 *
 * @param dynamicScalingIn policies may not remove capacity
 * @param dynamicScalingOut policies may not add capacity
 * @param scheduledScaling scheduled actions do not run
 */
public record SuspendedState(
    boolean dynamicScalingIn, boolean dynamicScalingOut, boolean scheduledScaling) {
  public static final SuspendedState NONE = new SuspendedState(false, false, false);
  public static final SuspendedState ALL = new SuspendedState(true, true, true);

  public boolean anySuspended() {
    return dynamicScalingIn || dynamicScalingOut || scheduledScaling;
  }
}
