package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ValidateTimeline;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.platform.Backoff;
import dev.speechscale.platform.FakeClock;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.ResponseBreakdown;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.Statistic;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * validate --live's timeline: requests, instance samples and the concurrency metric land in the
 * interval they happened in. Time is a fake clock and fake nanoseconds; the sampler thread is not
 * started (its loop only calls {@link TimelineRecorder#sample()}).
 */
class TimelineRecorderTest {
  static final long MS = 1_000_000L;
  static final long START_NANOS = 1_000 * MS;

  final Instant t0 = Instant.parse("2026-12-01T12:00:00Z");
  final FakeClock clock = new FakeClock(t0);
  final FakePlatform fake = FakePlatform.deployedBehind(Recorded.quickstartPlan());
  final RetryingPlatform platform =
      new RetryingPlatform(fake, clock, clock::advance, Backoff.THROTTLING, 1);
  final TimelineRecorder recorder =
      new TimelineRecorder(
          platform, fake.endpoint, clock, () -> START_NANOS, Duration.ofSeconds(5));

  /** A request sent at {@code sentMs} (from the start) that ended at {@code endMs}. */
  static RequestEvent request(long sentMs, long firstAudioMs, long endMs, Outcome outcome) {
    return new RequestEvent(
        RequestEvent.LoadModel.CLOSED_LOOP,
        0,
        0,
        1,
        0,
        0,
        START_NANOS + sentMs * MS,
        START_NANOS + sentMs * MS,
        firstAudioMs < 0 ? -1 : START_NANOS + firstAudioMs * MS,
        START_NANOS + endMs * MS,
        outcome,
        outcome == Outcome.OK ? 200 : 503,
        0,
        10,
        null,
        ResponseBreakdown.UNKNOWN);
  }

  void at(long seconds) {
    clock.advance(Duration.between(clock.instant(), t0.plusSeconds(seconds)));
  }

  @Test
  void finish_requestsInTwoIntervals_eachIntervalHasItsCountP95AndRefusals() {
    recorder.completed(request(0, 100, 1_000, Outcome.OK));
    recorder.completed(request(0, 300, 2_000, Outcome.OK));
    recorder.completed(request(5_500, -1, 5_600, Outcome.REJECTED));
    recorder.completed(request(6_000, 6_050, 7_000, Outcome.OK));
    at(9);

    ValidateTimeline t = recorder.finish();

    assertThat(t.intervalS()).isEqualTo(5.0);
    assertThat(t.samples()).hasSize(2);
    ValidateTimeline.Sample first = t.samples().get(0);
    assertThat(first.tS()).isZero();
    assertThat(first.completed()).isEqualTo(2);
    assertThat(first.ttfabP95Ms()).isBetween(100.0, 300.0);
    assertThat(first.shed()).isZero();
    ValidateTimeline.Sample second = t.samples().get(1);
    assertThat(second.tS()).isEqualTo(5.0);
    assertThat(second.completed()).isEqualTo(2);
    assertThat(second.shed()).isEqualTo(1);
    assertThat(second.ttfabP95Ms()).isEqualTo(50.0);
  }

  @Test
  void sample_instancesChangeDuringTheRun_eachIntervalKeepsTheLastAnswer() {
    recorder.sample();
    at(6);
    fake.currentInstances = 2;
    recorder.sample();
    at(12);

    ValidateTimeline t = recorder.finish();

    assertThat(t.samples()).extracting(ValidateTimeline.Sample::instances).containsExactly(1, 2, 2);
  }

  @Test
  void finish_concurrencyDatapoints_largestPerIntervalAndNullWhereNoneWasPublished() {
    fake.concurrency.add(new MetricSeries.Datapoint(t0.plusSeconds(1), 3));
    fake.concurrency.add(new MetricSeries.Datapoint(t0.plusSeconds(2), 7));
    fake.concurrency.add(new MetricSeries.Datapoint(t0.plusSeconds(11), 4));
    at(14);

    ValidateTimeline t = recorder.finish();

    assertThat(t.samples())
        .extracting(ValidateTimeline.Sample::serverConcurrencyMax)
        .containsExactly(7.0, null, 4.0);
    MetricQuery q = fake.metricQueries.getLast();
    assertThat(q.metric()).isEqualTo(MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL);
    assertThat(q.statistic()).isEqualTo(Statistic.MAXIMUM);
    assertThat(q.start()).isEqualTo(t0);
    assertThat(t.concurrencyMetric()).contains("Maximum per 10 s period");
  }

  @Test
  void phase_marksWhenEachCheckBegan() {
    recorder.phase("live_rejections");
    at(31);
    recorder.phase("live_surge");

    assertThat(recorder.finish().phases())
        .containsExactly(
            new ValidateTimeline.Phase("live_rejections", 0.0),
            new ValidateTimeline.Phase("live_surge", 31.0));
  }
}
