package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.WarmupRamp;
import dev.speechscale.loadgen.LadderListener;
import dev.speechscale.platform.ResponseBreakdown;
import dev.speechscale.simulator.ColdStart;
import java.time.Duration;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * qmax records how its warm-up ramped. On fake time (which starts at 1 s) the endpoint answers
 * requests sent before 2 s in 300 ms (first audio at 150 ms) and later ones in 100 ms, with no
 * queue wait: the warm-up at N=1 for 3 s sends four slow requests (1.0, 1.3, 1.6, 1.9 s) and then
 * eighteen fast ones (2.2 … 3.9 s).
 */
class QmaxRunWarmupTest {
  private static final long MS = 1_000_000L;

  private static QmaxArtifact run(ResponseBreakdown breakdown) {
    return FakeTimeQmax.run(
        OptionalInt.empty(),
        nowNanos ->
            FakeTimedEndpoint.of(
                nowNanos, sent -> sent < 2_000 * MS ? 150 * MS : 50 * MS, breakdown),
        FakeTimeQmax.oneRung().withWarmup(Duration.ofSeconds(3)),
        LadderListener.NONE);
  }

  @Test
  void run_freshInstance_recordsItsWarmupRampAndTheColdStartItGives() {
    QmaxArtifact a = run(new ResponseBreakdown(0, 10_000, 2.0, null));

    WarmupRamp ramp = a.warmupRamp();
    assertThat(ramp).isNotNull();
    assertThat(ramp.concurrency()).isEqualTo(1);
    assertThat(ramp.requests()).isEqualTo(22);
    assertThat(ramp.referenceServiceMs()).isCloseTo(100, within(1e-6));
    assertThat(ramp.buckets().getFirst().serviceMsMean()).isCloseTo(300, within(1e-6));
    ColdStart cold = a.coldStart("/runs/qmax-x.json");
    assertThat(cold.steps()).hasSize(1);
    assertThat(cold.factor(0)).isCloseTo(3.0, within(1e-9));
    assertThat(cold.factor(4)).isEqualTo(1.0);
    assertThat(cold.source()).isEqualTo("the warm-up of qmax-x.json");
  }

  @Test
  void run_instanceSlowedInItsWarmupsLastHalf_referenceIsTheRungAtTheWarmupsN() {
    // sent before 2 s: 300 ms (1.0, 1.3, 1.6, 1.9 s); 2-3 s: 100 ms (2.2 ... 2.9 s); 3-4 s: 200 ms
    // (3.0, 3.2, ... 3.8 s), the warm-up's last half slowed; the rung at N=1 after it: 100 ms
    QmaxArtifact a =
        FakeTimeQmax.run(
            OptionalInt.empty(),
            nowNanos ->
                FakeTimedEndpoint.of(
                    nowNanos,
                    sent ->
                        sent < 2_000 * MS
                            ? 150 * MS
                            : sent >= 3_000 * MS && sent < 4_000 * MS ? 100 * MS : 50 * MS,
                    new ResponseBreakdown(0, 10_000, 2.0, null)),
            FakeTimeQmax.oneRung().withWarmup(Duration.ofSeconds(3)),
            LadderListener.NONE);

    WarmupRamp ramp = a.warmupRamp();
    assertThat(ramp).isNotNull();
    assertThat(ramp.requests()).isEqualTo(17);
    assertThat(ramp.referenceServiceMs()).isCloseTo(100, within(1e-6));
    assertThat(ramp.referenceSource()).isEqualTo("ladder N=1 rung");
    assertThat(a.steps().getFirst().breakdown().serviceMeanMs()).isCloseTo(100, within(1e-6));
    // against the warm-up's own last half (4 x 100 + 5 x 200 ms over 9) it read 1.93x
    ColdStart cold = a.coldStart("qmax-x.json");
    assertThat(cold.factor(0)).isCloseTo(3.0, within(1e-9));
    assertThat(cold.rampRequests()).isEqualTo(4);
  }

  @Test
  void run_responsesWithoutTheirQueueWait_recordNoRamp() {
    QmaxArtifact a = run(ResponseBreakdown.UNKNOWN);

    assertThat(a.warmupRamp()).isNull();
    assertThat(a.coldStart("qmax-x.json")).isEqualTo(ColdStart.NONE);
  }
}
