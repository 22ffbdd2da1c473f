package dev.speechscale.capacity;

/**
 * Scale-out and scale-in cooldowns derived from the planned-against scale-out time T.
 *
 * <p>Scale-out is cheap to get wrong (one instance for a few seconds too long), so its cooldown is
 * short: half of T, clamped to [10, 30] s — 10 s is one high-resolution metric period, below which
 * a policy could act twice on one datapoint. Scale-in is expensive to get wrong (removed capacity
 * costs a full T to replace), so its cooldown is 3T, at least 300 s.
 *
 * @param scaleOutSeconds {@code ⌊max(10, min(30, T/2))⌋}
 * @param scaleInSeconds {@code ⌊max(300, 3T)⌋}
 */
public record Cooldowns(int scaleOutSeconds, int scaleInSeconds) {

  /** Derives both cooldowns from T in seconds. */
  static Cooldowns forScaleOutTime(double tSeconds) {
    if (!(tSeconds >= 0) || Double.isInfinite(tSeconds)) {
      throw new CapacityException("T (" + tSeconds + " s) must be a finite, non-negative duration");
    }
    int out = (int) Math.floor(Math.max(10.0, Math.min(30.0, tSeconds / 2.0)));
    int in = (int) Math.floor(Math.max(300.0, 3.0 * tSeconds));
    return new Cooldowns(out, in);
  }
}
