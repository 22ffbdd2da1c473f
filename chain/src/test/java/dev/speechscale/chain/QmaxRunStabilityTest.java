package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.RungStability;
import dev.speechscale.loadgen.DriftRecheck;
import dev.speechscale.loadgen.LadderListener;
import dev.speechscale.loadgen.StabilityRule;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * qmax's stability windows end to end on fake time: one rung at N=1 held 10 s, its trailing 5 s the
 * first window, then 5 s windows until three agree within 10 %, at most 40 s (seven windows). The
 * endpoint's speed is a function of how long after the rung's first request a request is sent, so
 * every window's figures are exact (fake time has no noise).
 */
class QmaxRunStabilityTest {
  private static final Instant WALL = FakeTimeQmax.WALL;
  private static final long SECOND = 1_000_000_000L;
  private static final StabilityRule THREE = new StabilityRule(3, 10, Duration.ofSeconds(40));

  /**
   * Runs qmax at N=1; {@code firstAudioMs} maps seconds since the rung's first request to the time
   * to first audio (a request takes twice that).
   */
  private static QmaxArtifact qmax(StabilityRule rule, LongUnaryOperator firstAudioMs) {
    AtomicLong firstSent = new AtomicLong(-1);
    return FakeTimeQmax.run(
        OptionalInt.of(0),
        nowNanos ->
            FakeTimedEndpoint.of(
                nowNanos,
                sent -> {
                  firstSent.compareAndSet(-1, sent);
                  long s = (sent - firstSent.get()) / SECOND;
                  return firstAudioMs.applyAsLong(s) * 1_000_000L;
                }),
        FakeTimeQmax.oneRung().withDrift(DriftRecheck.OFF).withStability(rule),
        LadderListener.NONE);
  }

  /** 150 ms to first audio in odd 5 s periods since the first request, 100 ms in even ones. */
  private static long alternating(long secondsSinceFirst) {
    return secondsSinceFirst / 5 % 2 == 1 ? 150 : 100;
  }

  @Test
  void run_endpointAlternatingEveryWindow_rungIsUnstableUnusableAndSaidSo() {
    QmaxArtifact a = qmax(THREE, QmaxRunStabilityTest::alternating);

    QmaxStep step = a.steps().getFirst();
    RungStability s = step.stability();
    assertThat(s.stable()).isFalse();
    // windows from 5 s to 40 s: 300 ms a request (3.3 req/s) in [5, 10), 200 ms in [10, 15), ...
    assertThat(s.windows()).hasSize(7);
    assertThat(s.windows())
        .extracting(RungStability.Window::ttfabP95Ms)
        .containsExactly(150.0, 100.0, 150.0, 100.0, 150.0, 100.0, 150.0);
    assertThat(s.windows())
        .extracting(RungStability.Window::counted)
        .containsExactly(false, false, false, false, true, true, true);
    assertThat(step.usable()).isFalse();
    assertThat(step.unusableReason())
        .startsWith("unstable: held to the max hold (40 s), 7 windows, and no 3 in a row agreed");
    assertThat(a.qMax()).isZero();
    assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, ArtifactCodec.toJson(a))).isEmpty();
    assertThat(QmaxTrust.lines(a))
        .anyMatch(l -> l.startsWith("stability windows: each rung held until 3 windows in a row"))
        .anyMatch(l ->
            l.startsWith("UNSTABLE: N=1 (run 1, rung 1) held 40 s, 7 windows, no 3 in a row")
                && l.contains("p95 150, 100, 150, 100, 150, 100, 150 ms"))
        .anyMatch(l -> l.startsWith("1 of 1 rungs never held steady: Q_max 0 was decided"));
  }

  @Test
  void run_sameEndpointOneWindow_theOldMeasurementTrustsTheRung() {
    // the measurement before stability windows: the hold's trailing window, steady in itself
    QmaxArtifact a = qmax(StabilityRule.SINGLE_WINDOW, QmaxRunStabilityTest::alternating);

    QmaxStep step = a.steps().getFirst();
    assertThat(step.stability()).isNull();
    assertThat(step.usable()).isTrue();
    assertThat(step.ttfabP95Ms()).isEqualTo(150.0);
    assertThat(a.qMax()).isEqualTo(1);
    assertThat(QmaxTrust.lines(a)).noneMatch(l -> l.startsWith("stability windows"));
  }

  @Test
  void run_slowStartThenSteady_heldUntilThreeAgreeAndReportsThose() {
    // 150 ms to first audio for the first 12 s, then 100 ms: [5, 10) and [10, 15) differ, [15,
    // 20), [20, 25) and [25, 30) agree exactly
    QmaxArtifact a = qmax(THREE, s -> s < 12 ? 150 : 100);

    QmaxStep step = a.steps().getFirst();
    RungStability s = step.stability();
    assertThat(s.stable()).isTrue();
    assertThat(s.windows()).hasSize(5);
    assertThat(s.counted())
        .extracting(RungStability.Window::startS)
        .containsExactly(15.0, 20.0, 25.0);
    assertThat(s.throughputSpreadPct()).isZero();
    assertThat(step.usable()).isTrue();
    assertThat(step.ok()).isEqualTo(75); // 5 req/s over the three counted windows
    assertThat(step.achievedRps()).isCloseTo(5.0, within(1e-9));
    assertThat(step.ttfabP95Ms()).isEqualTo(100.0);
    assertThat(QmaxTrust.lines(a))
        .anyMatch(l -> l.endsWith("at most 40 s: 5–5 windows per rung"))
        .noneMatch(l -> l.startsWith("UNSTABLE"));
  }
}
