package dev.speechscale.capacity;

/**
 * Instances needed for a stated load.
 *
 * <p>For a request rate the honest divisor is what one instance completes per second while held at
 * the scale-out threshold, X(C_scale_max), read off the measured ladder. The published {@code
 * ⌈λ·S_mean / C_scale_max⌉} divides offered concurrency by a concurrency, which is only right for
 * an instance that serves C_scale_max requests in parallel; a serial engine serves one, and the
 * formula undersizes its fleet by that factor.
 */
public final class FleetSizing {
  private FleetSizing() {}

  /**
   * Instances for {@code load} when each is held at {@code cScaleMax} concurrent requests and then
   * completes {@code throughputPerSecond}.
   */
  static int instances(Load load, double cScaleMax, double throughputPerSecond) {
    if (!(cScaleMax > 0)) {
      throw new CapacityException("C_scale_max (" + cScaleMax + ") must be positive");
    }
    return switch (load) {
      case Load.RequestRate rate -> {
        if (!(throughputPerSecond > 0)) {
          throw new CapacityException(
              "throughput (" + throughputPerSecond + " req/s) must be positive to size for a rate");
        }
        yield ceilCount(rate.perSecond() / throughputPerSecond);
      }
      case Load.Streams streams -> ceilCount(streams.count() / cScaleMax);
    };
  }

  /** The published tool's figure, shown beside ours: {@code ⌈λ·S_mean / C_scale_max⌉}. */
  public static int naive(double perSecond, double sMeanSeconds, double cScaleMax) {
    return ceilCount(perSecond * sMeanSeconds / cScaleMax);
  }

  /** Whole instances, at least 1 for any positive load; tolerant of representation error. */
  static int ceilCount(double fractional) {
    if (fractional <= 0) {
      return 0;
    }
    return Math.max(1, (int) Math.ceil(fractional - 1e-9));
  }
}
