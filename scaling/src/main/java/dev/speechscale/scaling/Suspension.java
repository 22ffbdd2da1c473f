package dev.speechscale.scaling;

/**
 * Application Auto Scaling's suspended flags for dynamic scaling: a suspended direction is not
 * acted on, though its alarm is still evaluated.
 *
 * @param dynamicScalingIn scale-in suspended
 * @param dynamicScalingOut scale-out suspended
 */
public record Suspension(boolean dynamicScalingIn, boolean dynamicScalingOut) {
  /** Nothing suspended. */
  public static final Suspension NONE = new Suspension(false, false);

  /** Both directions suspended (what a measurement freezes). */
  public static final Suspension ALL = new Suspension(true, true);
}
