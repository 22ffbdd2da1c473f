package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.Statistic;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricStoreTest {
  static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");

  @Test
  void query_aggregatesPerEpochAlignedPeriod() {
    MetricStore store = new MetricStore();
    for (int s = 0; s < 20; s++) {
      store.record(
          new MetricStore.Sample(
              T0.plusSeconds(s), s, 2, s % 5 == 0 ? 1 : 0, 0, new double[] {1000.0 * s}));
    }
    store.record(new MetricStore.Sample(T0.plusSeconds(20), Double.NaN, 0, 0, 0, new double[0]));

    MetricSeries max =
        store.query(query(MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL, Statistic.MAXIMUM));
    MetricSeries avg =
        store.query(query(MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL, Statistic.AVERAGE));
    MetricSeries invocations = store.query(query(MetricQuery.Metric.INVOCATIONS, Statistic.SUM));
    MetricSeries p95 = store.query(query(MetricQuery.Metric.FIRST_CHUNK_LATENCY, Statistic.P95));

    assertThat(max.datapoints())
        .extracting(MetricSeries.Datapoint::value)
        .containsExactly(9.0, 19.0);
    assertThat(avg.datapoints())
        .extracting(MetricSeries.Datapoint::value)
        .containsExactly(4.5, 14.5);
    assertThat(max.datapoints().get(1).at()).isEqualTo(T0.plusSeconds(10));
    assertThat(invocations.datapoints())
        .extracting(MetricSeries.Datapoint::value)
        .containsExactly(20.0, 20.0, 0.0);
    assertThat(p95.datapoints().getFirst().value())
        .isCloseTo(8550.0, org.assertj.core.api.Assertions.within(1e-6));
  }

  @Test
  void query_withAPublicationDelay_answersOnlySamplesAtLeastThatOld() {
    Clock at25 = Clock.fixed(T0.plusSeconds(25), ZoneOffset.UTC);
    MetricStore store = new MetricStore(Duration.ofSeconds(12), at25);
    for (int s = 0; s < 25; s++) {
      store.record(new MetricStore.Sample(T0.plusSeconds(s), s, 1, 0, 0, new double[0]));
    }

    MetricSeries max =
        store.query(query(MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL, Statistic.MAXIMUM));

    // published up to 25 - 12 = 13 s: the first period whole, the second up to its 13th second
    assertThat(max.datapoints())
        .extracting(MetricSeries.Datapoint::value)
        .containsExactly(9.0, 13.0);
  }

  @Test
  void query_withAPublicationDelay_answersEverythingOnceItIsOld() {
    Clock at40 = Clock.fixed(T0.plusSeconds(40), ZoneOffset.UTC);
    MetricStore store = new MetricStore(Duration.ofSeconds(12), at40);
    for (int s = 0; s < 25; s++) {
      store.record(new MetricStore.Sample(T0.plusSeconds(s), s, 1, 0, 0, new double[0]));
    }

    assertThat(
            store
                .query(query(MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL, Statistic.MAXIMUM))
                .datapoints())
        .extracting(MetricSeries.Datapoint::value)
        .containsExactly(9.0, 19.0, 24.0);
  }

  @Test
  void publicationDelayMs_isWhatTheScalingEngineWaitsFor() {
    MetricStore store = new MetricStore(Duration.ofSeconds(60), Clock.systemUTC());

    assertThat(new MetricStoreDatapoints(store).publicationDelayMs()).isEqualTo(60_000);
    assertThat(new MetricStoreDatapoints(new MetricStore()).publicationDelayMs()).isZero();
  }

  @Test
  void percentile_interpolatesLinearly() {
    assertThat(MetricStore.percentile(List.of(1.0, 2.0, 3.0, 4.0), 0.5)).isEqualTo(2.5);
  }

  private static MetricQuery query(MetricQuery.Metric m, Statistic s) {
    return new MetricQuery(m, s, Duration.ofSeconds(10), T0, T0.plusSeconds(30));
  }
}
