package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.loadgen.LadderListener;
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Transport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * qmax reads time only from the {@link ChainClock} it is given: latency from its monotonic clock,
 * the artifact's time from its wall clock. A fake endpoint answers on the same fake monotonic
 * clock, first audio 100 ms after the send, so the ladder's p95 is exactly 100 ms only when the
 * driver timed it on the injected clock, and a 10 s hold passes in fake time.
 */
class QmaxRunClockTest {
  private static final long FIRST_AUDIO_NANOS = Duration.ofMillis(100).toNanos();
  private static final Instant WALL = Instant.parse("2030-01-02T03:04:05Z");

  @Test
  void run_injectedClocks_timeTheLadderAndStampTheArtifact() {
    FakePlatform platform = FakePlatform.deployedBehind(Recorded.quickstartPlan());
    platform.desiredInstances = 1;
    platform.currentInstances = 1;
    platform.queueBound = OptionalInt.empty();
    AtomicLong nowNanos = new AtomicLong(1_000_000_000L);
    platform.invoker = FakeTimedEndpoint.of(nowNanos, new AtomicLong(FIRST_AUDIO_NANOS));
    // the server publishes its concurrency every second around the fake wall time, so the join
    // finds every window (and a datapoint past the last) on its first poll: fake time never
    // advances, so a join that had to wait would wait for its poll bound in real time
    for (int s = -600; s <= 600; s++) {
      platform.concurrency.add(new MetricSeries.Datapoint(WALL.plusSeconds(s), 1.0));
    }
    NanoClock monotonic = nowNanos::get;
    ChainClock clocks = new ChainClock(Clock.fixed(WALL, ZoneOffset.UTC), monotonic);
    LadderSpec spec =
        LadderSpec.of(List.of(1), Duration.ofSeconds(10), Duration.ofSeconds(5), 1, 1000)
            .withRefine(false);

    QmaxArtifact a =
        QmaxRun.run(
            platform,
            new QmaxRun.Options(
                "quickstart",
                Transport.HTTP_STREAM,
                spec,
                List.of("The birch canoe slid on the smooth planks."),
                1,
                null,
                Duration.ofSeconds(5),
                "test",
                Map.of()),
            clocks,
            LadderListener.NONE,
            line -> {});

    assertThat(a.createdAt()).isEqualTo(WALL);
    assertThat(a.steps()).hasSize(1);
    QmaxStep rung = a.steps().getFirst();
    assertThat(rung.concurrency()).isEqualTo(1);
    assertThat(rung.ttfabP95Ms()).isEqualTo(100.0);
    assertThat(rung.serverConcurrencyPeak()).isEqualTo(1.0);
  }
}
