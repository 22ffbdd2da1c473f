package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.capacity.ThroughputCurve;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.simulator.InstanceModel;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The instance's speed in a replay's warm-up, and whether the prediction takes it. */
class InstanceSpeedTest {
  private static final long MS = 1_000_000L;

  /** Ladder: 12 req/s at N=2, 13 at N=8 (so 12.5 at N=4, interpolated on held concurrency). */
  private static final ThroughputCurve LADDER =
      new ThroughputCurve(
          List.of(
              new ThroughputCurve.Point(1, 11),
              new ThroughputCurve.Point(2, 12),
              new ThroughputCurve.Point(8, 13)));

  private static WarmupSpeed speed(long requests) {
    return new WarmupSpeed(4, requests, 10.0, requests / 10.0, 2 * requests);
  }

  @Test
  void of_fasterWarmup_scalesTheLaddersXSatByTheRatioAtTheSameN() {
    // 150 requests in 10 s = 15 req/s against the ladder's X(4) = 12 + (4 - 2) / 6 = 12.333
    InstanceSpeed.Decision d =
        InstanceSpeed.of(speed(150), LADDER, 12.9, InstanceSpeed.Source.WARMUP);

    assertThat(d).isNotNull();
    assertThat(d.figure().applied()).isTrue();
    assertThat(d.figure().ladderRps()).isCloseTo(12.333, within(1e-3));
    assertThat(d.figure().ratio()).isCloseTo(15 / 12.3333, within(1e-4));
    assertThat(d.saturation())
        .isInstanceOfSatisfying(
            InstanceModel.Saturation.Given.class,
            g -> {
              assertThat(g.perSecond()).isCloseTo(12.9 * 15 / 12.3333, within(1e-3));
              assertThat(g.source())
                  .contains("the ladder's 12.90 x 1.216")
                  .contains("N=4: 15.00 req/s against the ladder's 12.33");
            });
  }

  @Test
  void of_ladderAsked_recordsTheSpeedButKeepsTheLaddersXSat() {
    InstanceSpeed.Decision d =
        InstanceSpeed.of(speed(150), LADDER, 12.9, InstanceSpeed.Source.LADDER);

    assertThat(d).isNotNull();
    assertThat(d.saturation()).isNull();
    assertThat(d.figure().applied()).isFalse();
    assertThat(d.figure().ratio()).isCloseTo(1.216, within(1e-3));
    assertThat(d.figure().note()).contains("--speed ladder");
  }

  @Test
  void of_tooFewRequests_isNotApplied() {
    InstanceSpeed.Decision d =
        InstanceSpeed.of(speed(39), LADDER, 12.9, InstanceSpeed.Source.WARMUP);

    assertThat(d).isNotNull();
    assertThat(d.saturation()).isNull();
    assertThat(d.figure().note()).contains("only 39 requests").contains("40 needed");
  }

  @Test
  void of_noWarmup_decidesNothing_andAnEmptyLadderHasNothingToCompare() {
    assertThat(InstanceSpeed.of(null, LADDER, 12.9, InstanceSpeed.Source.WARMUP)).isNull();

    InstanceSpeed.Decision d =
        InstanceSpeed.of(
            speed(150), new ThroughputCurve(List.of()), 12.9, InstanceSpeed.Source.WARMUP);

    assertThat(d).isNotNull();
    assertThat(d.saturation()).isNull();
    assertThat(d.figure().ladderRps()).isNull();
  }

  /** A request that ended at {@code endMs}, 70 ms after it was sent, with no queue wait. */
  private static RequestEvent ended(Outcome outcome, long endMs) {
    return WarmupRecorderTest.event(outcome, endMs - 70, 70, 0);
  }

  @Test
  void recorder_countsSuccessfulRequestsThatEndedInTheSecondHalf_andInTheWholeWarmup() {
    WarmupSpeed.Recorder r = new WarmupSpeed.Recorder();
    for (long t = 100; t < 10_000; t += 100) { // one every 100 ms over [0, 10 s)
      r.completed(ended(Outcome.OK, t));
    }
    r.completed(ended(Outcome.REJECTED, 7_050)); // refused: not served
    r.completed(ended(Outcome.OK, 10_000)); // after the end

    WarmupSpeed s = r.speed(4, 0, 10_000 * MS);

    assertThat(s).isNotNull();
    assertThat(s.requests()).isEqualTo(50); // 5000, 5100, ..., 9900
    assertThat(s.seconds()).isEqualTo(5.0);
    assertThat(s.servedPerSecond()).isEqualTo(10.0);
    assertThat(s.enough()).isTrue();
    assertThat(s.servedTotal()).isEqualTo(99); // 100, 200, ..., 9900: where its cold start stands
    assertThat(r.speed(4, 5, 5)).isNull();
  }
}
