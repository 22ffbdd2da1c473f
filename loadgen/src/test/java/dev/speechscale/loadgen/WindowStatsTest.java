package dev.speechscale.loadgen;

import static dev.speechscale.loadgen.Events.MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.ResponseBreakdown;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowStatsTest {
  @Test
  void compute_attributesByEndTime() {
    List<RequestEvent> events =
        List.of(
            Events.ok(0, 0, 10, 90), // ends before the window
            Events.ok(0, 90, 10, 150), // sent before, ends inside: counted
            Events.ok(1, 180, 10, 199), // inside
            Events.ok(1, 199, 10, 200)); // ends exactly at the window end: excluded

    WindowStats s = WindowStats.compute(events, 2, 100 * MS, 200 * MS);

    assertThat(s.completed()).isEqualTo(2);
    assertThat(s.ok()).isEqualTo(2);
    assertThat(s.achievedRps()).isCloseTo(20.0, within(1e-9));
  }

  @Test
  void compute_percentilesOverSuccessesOnly() {
    List<RequestEvent> events = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      events.add(Events.ok(0, i * 10L, i * 10L, i * 10L + 50));
    }
    events.add(Events.rejected(1, 20, 21)); // a fast 503 must not pull p95 down

    WindowStats s = WindowStats.compute(events, 2, 0, 1000 * MS);

    assertThat(s.ttfabP50Ms()).isCloseTo(25.0, within(1e-9));
    assertThat(s.ttfabP95Ms()).isCloseTo(38.5, within(1e-9));
    assertThat(s.rejected()).isEqualTo(1);
    assertThat(s.completed()).isEqualTo(5);
    assertThat(s.ttfabHistogram().getTotalCount()).isEqualTo(4);
  }

  @Test
  void compute_latencyMeanAndPercentiles_fromIntendedTime() {
    List<RequestEvent> events = List.of(Events.ok(0, 0, 5, 100), Events.ok(0, 100, 5, 300));

    WindowStats s = WindowStats.compute(events, 1, 0, 1000 * MS);

    assertThat(s.latencyMeanMs()).isCloseTo(150.0, within(1e-9));
    assertThat(s.latencyP50Ms()).isCloseTo(150.0, within(1e-9));
    assertThat(s.latencyHistogram().getTotalCount()).isEqualTo(2);
  }

  @Test
  void compute_concurrencyMean_isTimeWeightedInFlight() {
    // window [100, 200): worker 0 in flight the whole window; worker 1 half of it
    List<RequestEvent> events = List.of(Events.ok(0, 50, 10, 250), Events.ok(1, 120, 10, 170));

    WindowStats s = WindowStats.compute(events, 2, 100 * MS, 200 * MS);

    assertThat(s.concurrencyMean()).isCloseTo(1.5, within(1e-9));
  }

  @Test
  void compute_concurrencyMean_countsEveryOutcome() {
    List<RequestEvent> events = List.of(Events.rejected(0, 0, 100), Events.failed(1, 0, 100));

    WindowStats s = WindowStats.compute(events, 2, 0, 200 * MS);

    assertThat(s.concurrencyMean()).isCloseTo(1.0, within(1e-9));
    assertThat(s.failed()).isEqualTo(1);
    assertThat(s.outcomes()).containsEntry(Outcome.SERVER_ERROR, 1L);
  }

  @Test
  void compute_climbingTtfab_positiveDriftOfTheThirds() {
    List<RequestEvent> events = new ArrayList<>();
    long[] ttfab = {10, 12, 11, 20, 21, 22, 40, 41, 42};
    for (int i = 0; i < ttfab.length; i++) {
      events.add(Events.ok(0, i * 100L, ttfab[i], i * 100L + 50));
    }

    WindowStats s = WindowStats.compute(events, 1, 0, 10_000 * MS);

    assertThat(s.ttfabDriftMs()).isCloseTo(41.0 - 11.0, within(1e-9));
  }

  @Test
  void compute_thirdsAreByEndTimeNotBySendTime() {
    // the request sent first ends last, so it belongs to the last third
    List<RequestEvent> events =
        List.of(Events.ok(0, 0, 90, 300), Events.ok(1, 10, 5, 100), Events.ok(2, 20, 5, 200));

    WindowStats s = WindowStats.compute(events, 3, 0, 1000 * MS);

    assertThat(s.ttfabDriftMs()).isCloseTo(85.0, within(1e-9));
  }

  @Test
  void compute_fewerThanThreeSuccesses_noDrift() {
    WindowStats s =
        WindowStats.compute(
            List.of(Events.ok(0, 0, 5, 10), Events.ok(0, 10, 5, 20)), 1, 0, MS * 100);

    assertThat(s.ttfabDriftMs()).isNull();
  }

  @Test
  void compute_nothingSucceeded_percentilesNull() {
    WindowStats s = WindowStats.compute(List.of(Events.rejected(0, 0, 10)), 1, 0, 100 * MS);

    assertThat(s.ttfabP95Ms()).isNull();
    assertThat(s.latencyMeanMs()).isNull();
    assertThat(s.ok()).isZero();
  }

  @Test
  void compute_charsOfSuccessesOnly() {
    List<RequestEvent> events =
        List.of(
            Events.event(0, 0, 5, 10, Outcome.OK, 200, 30),
            Events.event(0, 10, -1, 20, Outcome.REJECTED, 503, 99));

    assertThat(WindowStats.compute(events, 1, 0, 100 * MS).chars()).isEqualTo(30);
  }

  @Test
  void compute_emptyWindow_refused() {
    assertThatThrownBy(() -> WindowStats.compute(List.of(), 1, 100, 100))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("empty");
  }

  @Test
  void workerOverlaps_sequentialWorker_none() {
    assertThat(
            WindowStats.workerOverlaps(
                List.of(Events.ok(0, 0, 1, 10), Events.ok(0, 10, 1, 20), Events.ok(1, 5, 1, 30))))
        .isZero();
  }

  @Test
  void workerOverlaps_workerStartsBeforeItsPreviousEnds_counted() {
    assertThat(
            WindowStats.workerOverlaps(
                List.of(Events.ok(0, 0, 1, 10), Events.ok(0, 9, 1, 20), Events.ok(0, 15, 1, 30))))
        .isEqualTo(2);
  }

  @Test
  void compute_breakdown_overTheWindowsSuccessesOnlyWithUnsaidValuesLeftOut() {
    List<RequestEvent> events =
        List.of(
            // before the window: not counted even though it says a lot
            Events.withBreakdown(
                Events.ok(0, 0, 10, 90), new ResponseBreakdown(900_000, 900_000, 9.0, null)),
            Events.withBreakdown(
                Events.ok(0, 100, 10, 120), new ResponseBreakdown(1_000, 40_000, 2.0, null)),
            Events.withBreakdown(
                Events.ok(1, 100, 10, 130), new ResponseBreakdown(3_000, 50_000, 3.0, null)),
            // a server that sent no queue wait; its engine time and audio still count
            Events.withBreakdown(
                Events.ok(1, 130, 10, 140), new ResponseBreakdown(-1, 60_000, -1, null)),
            // a rejection says nothing that counts
            Events.withBreakdown(
                Events.rejected(2, 100, 150), new ResponseBreakdown(500_000, -1, -1, null)));

    WindowStats s = WindowStats.compute(events, 3, 100 * MS, 200 * MS);

    assertThat(s.breakdown()).isNotNull();
    assertThat(s.breakdown().timedRequests()).isEqualTo(2);
    // linear interpolation: p50 of {1, 3} ms is 2, p95 is 1 + 0.95 x 2
    assertThat(s.breakdown().queueWaitP50Ms()).isCloseTo(2.0, within(1e-9));
    assertThat(s.breakdown().queueWaitP95Ms()).isCloseTo(2.9, within(1e-9));
    assertThat(s.breakdown().engineFirstChunkP50Ms()).isCloseTo(50.0, within(1e-9));
    assertThat(s.breakdown().engineFirstChunkP95Ms()).isCloseTo(59.0, within(1e-9));
    assertThat(s.breakdown().audioRequests()).isEqualTo(2);
    assertThat(s.breakdown().audioMeanS()).isCloseTo(2.5, within(1e-12));
    // service time as the warm-up ramp takes it: sent to end less queue wait, (19 + 27) / 2 ms
    assertThat(s.breakdown().serviceMeanMs()).isCloseTo(23.0, within(1e-9));
  }

  @Test
  void compute_noResponseSaidAnything_noBreakdown() {
    WindowStats s =
        WindowStats.compute(
            List.of(Events.ok(0, 100, 10, 120), Events.ok(1, 100, 10, 130)), 2, 100 * MS, 200 * MS);

    assertThat(s.breakdown()).isNull();
  }
}
