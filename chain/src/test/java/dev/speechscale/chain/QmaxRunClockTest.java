package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.loadgen.LadderListener;
import dev.speechscale.platform.NanoClock;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * qmax reads time only from the {@link NanoClock} it is given: latency from its monotonic clock,
 * the artifact's time from its wall clock. A fake endpoint answers on the same fake monotonic
 * clock, first audio 100 ms after the send, so the ladder's p95 is exactly 100 ms only when the
 * driver timed it on the injected clock, and a 10 s hold passes in fake time.
 */
class QmaxRunClockTest {
  private static final long FIRST_AUDIO_NANOS = Duration.ofMillis(100).toNanos();
  private static final Instant WALL = FakeTimeQmax.WALL;

  @Test
  void run_injectedClocks_timeTheLadderAndStampTheArtifact() {
    QmaxArtifact a =
        FakeTimeQmax.run(
            OptionalInt.empty(),
            nowNanos -> FakeTimedEndpoint.of(nowNanos, new AtomicLong(FIRST_AUDIO_NANOS)),
            FakeTimeQmax.oneRung(),
            LadderListener.NONE);

    assertThat(a.createdAt()).isEqualTo(WALL);
    assertThat(a.steps()).hasSize(1);
    QmaxStep rung = a.steps().getFirst();
    assertThat(rung.concurrency()).isEqualTo(1);
    assertThat(rung.ttfabP95Ms()).isEqualTo(100.0);
    assertThat(rung.serverConcurrencyPeak()).isEqualTo(1.0);
  }
}
