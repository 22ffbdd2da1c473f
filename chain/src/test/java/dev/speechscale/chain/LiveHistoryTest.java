package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.Statistic;
import dev.speechscale.simulator.FleetSimulator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The live endpoint's history before a replay's trace, as the prediction starts from it. */
class LiveHistoryTest {
  private static final Instant T0 = Instant.parse("2026-12-02T09:55:00Z");

  private static List<Double> repeat(double v, int n) {
    return Collections.nCopies(n, v);
  }

  @Test
  void read_tenSecondDatapoints_areSpreadOverTheirSecondsAndGapsStayWithoutData() {
    FakePlatform p = FakePlatform.deployedBehind(Recorded.quickstartPlan());
    String endpoint = Recorded.quickstartPlan().endpoint();
    p.concurrency.add(new MetricSeries.Datapoint(T0.minusSeconds(30), 2.0));
    p.concurrency.add(new MetricSeries.Datapoint(T0.minusSeconds(20), 4.0));
    p.concurrency.add(new MetricSeries.Datapoint(T0.minusSeconds(10), 0.5));
    p.concurrency.add(new MetricSeries.Datapoint(T0, 9.0)); // the trace's own: not history

    // the trace started 400 ms after the boundary: its second is the boundary's
    FleetSimulator.PreRoll.Recorded h = LiveHistory.read(p, endpoint, T0.plusMillis(400), 60);

    List<Double> expected = new ArrayList<>(repeat(Double.NaN, 30));
    expected.addAll(repeat(2.0, 10));
    expected.addAll(repeat(4.0, 10));
    expected.addAll(repeat(0.5, 10));
    assertThat(h.concurrencyPerInstance()).isEqualTo(expected);
    assertThat(p.metricQueries)
        .containsExactly(
            new MetricQuery(
                MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL,
                Statistic.AVERAGE,
                Duration.ofSeconds(10),
                T0.minusSeconds(60),
                T0));
    assertThat(h.label()).isEqualTo("live");
    assertThat(LiveHistory.periods(h, 30)).isEqualTo("–, 2.17");
  }

  @Test
  void of_datapointStartingBeforeTheWindow_fillsOnlyTheSecondsInside() {
    MetricSeries s =
        new MetricSeries(
            new MetricQuery(
                MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL,
                Statistic.AVERAGE,
                Duration.ofSeconds(10),
                T0.minusSeconds(25),
                T0),
            List.of(new MetricSeries.Datapoint(T0.minusSeconds(25), 3.0)));

    FleetSimulator.PreRoll.Recorded h =
        LiveHistory.of(s, T0.minusSeconds(20), 20, Duration.ofSeconds(10));

    List<Double> expected = new ArrayList<>(repeat(3.0, 5));
    expected.addAll(repeat(Double.NaN, 15));
    assertThat(h.concurrencyPerInstance()).isEqualTo(expected);
    assertThat(LiveHistory.periods(h, 10)).isEqualTo("3.00, –");
  }

  @Test
  void read_noDatapointAtAll_isAHistoryWithoutDataNotAnError() {
    FakePlatform p = FakePlatform.deployedBehind(Recorded.quickstartPlan());

    FleetSimulator.PreRoll.Recorded h =
        LiveHistory.read(p, Recorded.quickstartPlan().endpoint(), T0, 180);

    assertThat(h.concurrencyPerInstance()).hasSize(180).allMatch(v -> v.isNaN());
    assertThat(LiveHistory.periods(h, 60)).isEqualTo("–, –, –");
  }

  @Test
  void publicationWait_aTraceShorterThanTheDelay_waitsForItsLastPreTraceSecond() {
    // CloudWatch publishes a minute late: a 30 s trace ends before the minute before it is readable
    assertThat(Replay.publicationWait(T0, Duration.ofSeconds(60), T0.plusSeconds(30)))
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(Replay.publicationWait(T0, Duration.ofSeconds(60), T0.plusSeconds(240))).isZero();
    assertThat(Replay.publicationWait(T0, Duration.ZERO, T0.plusSeconds(4))).isZero();
  }
}
