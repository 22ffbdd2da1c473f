package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.Transport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/** The warm-up's requests reach the warm-up listener, and only them. */
class WarmupRequestsLoopbackTest {
  private static final LadderSpec TWO_RUNGS =
      LadderSpec.of(List.of(1, 2), Duration.ofMillis(200), Duration.ofMillis(100), 1, 3000)
          .withRefine(false)
          // 100 ms windows drift by chance on a shared machine: flag only, no rewarm
          .withDrift(DriftRecheck.DEFAULT.withRewarmBudget(Duration.ZERO));

  private static RequestListener into(ConcurrentLinkedQueue<RequestEvent> seen) {
    return new RequestListener() {
      @Override
      public void completed(RequestEvent event) {
        seen.add(event);
      }
    };
  }

  @Test
  void run_warmup_itsRequestsReachTheWarmupListenerAndNoRungs() throws Exception {
    ConcurrentLinkedQueue<RequestEvent> warm = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<RequestEvent> rungs = new ConcurrentLinkedQueue<>();
    try (FakeTtsServer server = FakeTtsServer.fast();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri())) {
      LadderHooks hooks =
          LadderHooks.defaults().withRequests(into(rungs)).withWarmupRequests(into(warm));

      new LadderRunner(invoker, TextPool.shuffled(List.of("hello"), 1), hooks)
          .run(TWO_RUNGS.withWarmup(Duration.ofMillis(200)));

      assertThat(warm).isNotEmpty().allSatisfy(e -> assertThat(e.ok()).isTrue());
      // the warm-up runs at the top rung's N before rung 1 and is a rung of neither listener's
      assertThat(warm).allSatisfy(e -> assertThat(e.concurrency()).isEqualTo(2));
      assertThat(rungs).isNotEmpty();
      assertThat(warm.size() + rungs.size()).isEqualTo(server.requests());
      long lastWarm = warm.stream().mapToLong(RequestEvent::completedNanos).max().orElseThrow();
      assertThat(rungs).allSatisfy(e -> assertThat(e.sentNanos()).isGreaterThan(lastWarm));
    }
  }

  @Test
  void run_noWarmupListener_warmupIsUnrecordedAsBefore() throws Exception {
    ConcurrentLinkedQueue<RequestEvent> rungs = new ConcurrentLinkedQueue<>();
    try (FakeTtsServer server = FakeTtsServer.fast();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri())) {
      new LadderRunner(
              invoker,
              TextPool.shuffled(List.of("hello"), 1),
              LadderHooks.defaults().withRequests(into(rungs)))
          .run(TWO_RUNGS.withWarmup(Duration.ofMillis(200)));

      assertThat(server.requests()).isGreaterThan(rungs.size());
    }
  }
}
