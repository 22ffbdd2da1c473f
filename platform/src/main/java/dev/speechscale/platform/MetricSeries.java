package dev.speechscale.platform;

import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Datapoints in time order; a period with no data has no datapoint.
 *
 * @param query what was asked
 * @param datapoints what the platform returned
 */
public record MetricSeries(MetricQuery query, List<Datapoint> datapoints) {
  public MetricSeries {
    datapoints = List.copyOf(datapoints);
  }

  /**
   * One period's value.
   *
   * @param at the period's start
   * @param value the statistic
   */
  public record Datapoint(Instant at, double value) {}

  /** The largest value, if any. */
  public OptionalDouble max() {
    return datapoints.stream().mapToDouble(Datapoint::value).max();
  }

  /** The mean of the values, if any. */
  public OptionalDouble mean() {
    return datapoints.stream().mapToDouble(Datapoint::value).average();
  }
}
