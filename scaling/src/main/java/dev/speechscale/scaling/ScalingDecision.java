package dev.speechscale.scaling;

import java.util.Objects;

/**
 * One evaluation's outcome. {@code desired} equals the input desired count when nothing happens,
 * and {@code cause} then says why (which alarm, which cooldown, which flag).
 *
 * @param desired the desired instance count after the evaluation
 * @param direction which way it moved
 * @param cause which policy acted and on what numbers, or why none did
 */
public record ScalingDecision(int desired, Direction direction, String cause) {
  /** Which way a decision moves desired capacity. */
  public enum Direction {
    NONE,
    OUT,
    IN
  }

  public ScalingDecision {
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(cause, "cause");
    if (desired < 0) {
      throw new IllegalArgumentException(
          "decision desired (" + desired + ") must be at least 0; the engine computed a bad count");
    }
  }

  /** Whether desired capacity changes. */
  public boolean changes() {
    return direction != Direction.NONE;
  }
}
