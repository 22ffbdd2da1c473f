package dev.speechscale.capacity;

import org.jspecify.annotations.Nullable;

/**
 * The measured ratio between the deployed metric and the client's mean in-flight at one rung.
 *
 * @param statistic which server statistic
 * @param ratio server value / client mean
 * @param atConcurrency the rung it was measured at
 */
public record UnitsRatio(Statistic statistic, double ratio, int atConcurrency) {

  /** The two statistics the deployed policies read. */
  public enum Statistic {
    /** Target tracking reads ConcurrentRequestsPerModel Maximum over 10 s. */
    MAXIMUM,
    /** The scale-in alarm reads ConcurrentRequestsPerModel Average over 60 s. */
    AVERAGE;

    @Nullable Double serverValue(Rung rung) {
      return switch (this) {
        case MAXIMUM -> rung.serverConcurrencyPeak();
        case AVERAGE -> rung.serverConcurrencyMean();
      };
    }
  }
}
