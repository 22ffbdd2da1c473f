package dev.speechscale.chain;

import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.loadgen.LadderListener;
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Transport;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * qmax at N=1 on fake time, the set-up the qmax clock, drift and stability tests share: a fake
 * platform with one instance behind the recorded quickstart plan, an endpoint answering on a fake
 * monotonic clock, the server's concurrency published every second around the fake wall time (so
 * the join finds every window on its first poll: fake time never advances, so a join that had to
 * wait would wait for its poll bound in real time), and qmax run on those clocks.
 */
final class FakeTimeQmax {
  static final Instant WALL = Instant.parse("2030-01-02T03:04:05Z");

  private FakeTimeQmax() {}

  /** One rung at N=1, held 10 s with its trailing 5 s measured, no bisection. */
  static LadderSpec oneRung() {
    return LadderSpec.of(List.of(1), Duration.ofSeconds(10), Duration.ofSeconds(5), 1, 1000)
        .withRefine(false);
  }

  /**
   * Runs qmax with {@code spec} against the endpoint {@code endpoint} builds on the fake monotonic
   * clock (which starts at 1 s).
   */
  static QmaxArtifact run(
      OptionalInt queueBound,
      Function<AtomicLong, Invoker> endpoint,
      LadderSpec spec,
      LadderListener listener) {
    FakePlatform platform = FakePlatform.deployedBehind(Recorded.quickstartPlan());
    platform.desiredInstances = 1;
    platform.currentInstances = 1;
    platform.queueBound = queueBound;
    AtomicLong nowNanos = new AtomicLong(1_000_000_000L);
    platform.invoker = endpoint.apply(nowNanos);
    for (int s = -600; s <= 600; s++) {
      platform.concurrency.add(new MetricSeries.Datapoint(WALL.plusSeconds(s), 1.0));
    }
    NanoClock clocks = NanoClock.of(Clock.fixed(WALL, ZoneOffset.UTC), nowNanos::get);
    return QmaxRun.run(
        platform,
        new QmaxRequest(
            new Target("quickstart", "local", Path.of("endpoints.yaml"), null),
            new QmaxRequest.Load(Transport.HTTP_STREAM, null, 1, null),
            new QmaxRequest.Ladder(spec, "test"),
            // no open-loop idle-start rung: it waits for arrival times fake time never reaches
            new QmaxRequest.Checks(false, false, Duration.ofSeconds(5))),
        clocks,
        listener,
        line -> {});
  }
}
