package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.MetricQuery.Metric;
import dev.speechscale.scaling.MetricStatistic;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MetricStoreDatapointsTest {
  static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");

  private final MetricStore store = new MetricStore();
  private final MetricStoreDatapoints datapoints = new MetricStoreDatapoints(store);

  private void sample(int second, double perInstance) {
    store.record(
        new MetricStore.Sample(T0.plusSeconds(second), perInstance, 0, 0, 0, new double[0]));
  }

  @Test
  void periods_oneValuePerAlignedPeriod_nanWhereNoSample() {
    sample(0, 1.0);
    sample(5, 3.0);
    sample(25, 7.0);
    sample(26, Double.NaN);

    double[] max =
        datapoints.periods(
            Metric.CONCURRENT_REQUESTS_PER_MODEL,
            MetricStatistic.MAXIMUM,
            10_000,
            3,
            T0.toEpochMilli() + 30_000);

    assertThat(max[0]).isEqualTo(3.0);
    assertThat(max[1]).isNaN();
    assertThat(max[2]).isEqualTo(7.0);
  }

  @Test
  void periods_average_overTheSamplesOfThePeriod() {
    sample(0, 1.0);
    sample(5, 3.0);

    double[] avg =
        datapoints.periods(
            Metric.CONCURRENT_REQUESTS_PER_MODEL,
            MetricStatistic.AVERAGE,
            10_000,
            1,
            T0.toEpochMilli() + 10_000);

    assertThat(avg).containsExactly(2.0);
  }

  @Test
  void periods_aMetricTheStoreDoesNotRecord_isRefusedByName() {
    assertThatThrownBy(() ->
            datapoints.periods(
                Metric.CPU_UTILIZATION, MetricStatistic.AVERAGE, 60_000, 3, T0.toEpochMilli()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not record CPUUtilization")
        .hasMessageContaining("ConcurrentRequestsPerModel or InvocationsPerInstance only");
  }
}
