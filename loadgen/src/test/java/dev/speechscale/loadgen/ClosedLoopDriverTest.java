package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.loadgen.FakeTtsServer.Reply;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ClosedLoopDriverTest {
  private static final TextPool TEXTS = TextPool.shuffled(List.of("one", "two", "three"), 1);

  private static FakeTtsServer serial() throws Exception {
    return new FakeTtsServer(1, Duration.ofMillis(1), Duration.ofMillis(1), n -> Reply.OK);
  }

  @ParameterizedTest
  @EnumSource(
      value = Transport.class,
      names = {"HTTP_STREAM", "BIDI"})
  void run_holdsExactlyNOutstanding(Transport transport) throws Exception {
    try (FakeTtsServer server = serial();
        Invoker invoker = Targets.invoker(transport, server.baseUri());
        ClosedLoopDriver driver =
            new ClosedLoopDriver(invoker, TEXTS, NanoClock.SYSTEM, RequestListener.NONE)) {
      RungRecording rec = driver.run(0, 0, 3, Duration.ofMillis(200));

      assertThat(rec.events()).isNotEmpty().allMatch(RequestEvent::ok);
      assertThat(WindowStats.workerOverlaps(rec.events())).isZero();
      assertThat(rec.events()).extracting(RequestEvent::worker).contains(0, 1, 2);
      assertThat(maxInFlight(rec.events())).isLessThanOrEqualTo(3);
      assertThat(server.maxOutstanding()).isLessThanOrEqualTo(3);
      assertThat(server.maxInService()).isEqualTo(1);
      assertThat(server.connections()).isEqualTo(3);
      // no request is started after the hold, except a worker's unconditional first one
      assertThat(rec.events()).allMatch(e -> e.intendedNanos() <= e.sentNanos());
      assertThat(rec.events())
          .filteredOn(e -> e.intendedNanos() >= rec.holdEndNanos())
          .allMatch(e -> rec.events().stream().filter(o -> o.worker() == e.worker()).count() == 1);
      assertThat(rec.endNanos()).isGreaterThanOrEqualTo(rec.holdEndNanos());
    }
  }

  @Test
  void run_textsFollowThePoolOrderFromZeroEveryRung() throws Exception {
    try (FakeTtsServer server = serial();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri());
        ClosedLoopDriver driver =
            new ClosedLoopDriver(invoker, TEXTS, NanoClock.SYSTEM, RequestListener.NONE)) {
      RungRecording first = driver.run(0, 0, 1, Duration.ofMillis(50));
      RungRecording second = driver.run(0, 1, 2, Duration.ofMillis(50));

      assertThat(first.events().get(0).seq()).isZero();
      assertThat(second.events()).extracting(RequestEvent::seq).contains(0L, 1L);
      assertThat(first.events()).allMatch(e -> e.chars() == TEXTS.chars(e.seq()));
      assertThat(server.connections()).isEqualTo(2); // worker 0 kept its connection
    }
  }

  @Test
  void run_listenerSeesEveryRequest() throws Exception {
    ConcurrentLinkedQueue<RequestEvent> seen = new ConcurrentLinkedQueue<>();
    try (FakeTtsServer server = serial();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri());
        ClosedLoopDriver driver =
            new ClosedLoopDriver(invoker, TEXTS, NanoClock.SYSTEM, seen::add)) {
      RungRecording rec = driver.run(2, 5, 2, Duration.ofMillis(100));

      assertThat(seen).hasSameSizeAs(rec.events());
      assertThat(seen).allMatch(e -> e.runIndex() == 2 && e.stepIndex() == 5);
      assertThat(seen).allMatch(e -> e.loadModel() == RequestEvent.LoadModel.CLOSED_LOOP);
    }
  }

  @Test
  void run_listenerThrows_rungEndsThenTheFailureIsReported() throws Exception {
    try (FakeTtsServer server = serial();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri());
        ClosedLoopDriver driver =
            new ClosedLoopDriver(
                invoker,
                TEXTS,
                NanoClock.SYSTEM,
                e -> {
                  throw new IllegalStateException("disk full");
                })) {
      assertThatThrownBy(() -> driver.run(0, 0, 1, Duration.ofMillis(50)))
          .isInstanceOf(LoadgenException.class)
          .hasMessageContaining("listener failed", "disk full");
    }
  }

  @Test
  void stop_fromAnotherThread_endsTheHoldEarly() throws Exception {
    CountDownLatch firstRequest = new CountDownLatch(1);
    try (FakeTtsServer server = serial();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri());
        ClosedLoopDriver driver =
            new ClosedLoopDriver(invoker, TEXTS, NanoClock.SYSTEM, e -> firstRequest.countDown())) {
      Thread stopper =
          Thread.ofVirtual()
              .start(() -> {
                try {
                  if (firstRequest.await(30, TimeUnit.SECONDS)) {
                    driver.stop();
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      RungRecording rec = driver.run(0, 0, 2, Duration.ofMinutes(10));
      stopper.join();

      assertThat(driver.stopped()).isTrue();
      assertThat(rec.holdEndNanos())
          .isLessThan(rec.startNanos() + Duration.ofMinutes(10).toNanos());
      assertThatThrownBy(() -> driver.run(0, 1, 1, Duration.ofMillis(10)))
          .isInstanceOf(LoadgenException.class)
          .hasMessageContaining("stopped");
    }
  }

  @Test
  void run_deadEndpoint_recordsTransportErrorsWithoutSpinning() throws Exception {
    FakeTtsServer server = serial();
    java.net.URI base = server.baseUri();
    server.close();
    try (Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, base);
        ClosedLoopDriver driver =
            new ClosedLoopDriver(invoker, TEXTS, NanoClock.SYSTEM, RequestListener.NONE)) {
      RungRecording rec = driver.run(0, 0, 2, Duration.ofMillis(100));

      assertThat(rec.events())
          .isNotEmpty()
          .allMatch(
              e -> e.outcome() == dev.speechscale.platform.Invocation.Outcome.TRANSPORT_ERROR);
      assertThat(rec.events().size()).isLessThan(100); // paused ~10 ms after each failure
    }
  }

  @Test
  void run_zeroConcurrency_refused() throws Exception {
    try (FakeTtsServer server = serial();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri());
        ClosedLoopDriver driver =
            new ClosedLoopDriver(invoker, TEXTS, NanoClock.SYSTEM, RequestListener.NONE)) {
      assertThatThrownBy(() -> driver.run(0, 0, 0, Duration.ofMillis(10)))
          .isInstanceOf(LoadgenException.class)
          .hasMessageContaining("concurrency (0)");
    }
  }

  /** The most requests outstanding at any instant, from the events' intervals. */
  static int maxInFlight(List<RequestEvent> events) {
    List<long[]> edges = new ArrayList<>();
    for (RequestEvent e : events) {
      edges.add(new long[] {e.sentNanos(), 1});
      edges.add(new long[] {e.completedNanos(), -1});
    }
    Collections.sort(
        edges, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int now = 0;
    int max = 0;
    for (long[] edge : edges) {
      now += (int) edge[1];
      max = Math.max(max, now);
    }
    return max;
  }

  /** A check that says no twice, then yes, and keeps what it was shown at each checkpoint. */
  private static final class ThirdTime implements ClosedLoopDriver.HoldCheck {
    final List<Long> checkpoints = new ArrayList<>();
    final List<List<RequestEvent>> shown = new ArrayList<>();

    @Override
    public Duration first() {
      return Duration.ofMillis(100);
    }

    @Override
    public Duration every() {
      return Duration.ofMillis(50);
    }

    @Override
    public boolean enough(long startNanos, long checkpointNanos, List<RequestEvent> endedBefore) {
      checkpoints.add(checkpointNanos - startNanos);
      shown.add(endedBefore);
      return checkpoints.size() == 3;
    }
  }

  @Test
  void run_holdCheck_eachCheckpointSeesEveryRequestThatEndedBeforeItAndTheHoldEndsAtTheThird()
      throws Exception {
    try (FakeTtsServer server = serial();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri());
        ClosedLoopDriver driver =
            new ClosedLoopDriver(invoker, TEXTS, NanoClock.SYSTEM, RequestListener.NONE)) {
      ThirdTime check = new ThirdTime();
      // 10 s bound: the third checkpoint, at 200 ms, ends the hold long before it
      RungRecording rec = driver.run(0, 0, 3, Duration.ofSeconds(10), check);

      assertThat(check.checkpoints).containsExactly(100_000_000L, 150_000_000L, 200_000_000L);
      for (int i = 0; i < 3; i++) {
        long at = rec.startNanos() + check.checkpoints.get(i);
        assertThat(check.shown.get(i))
            .containsExactlyElementsOf(
                rec.events().stream().filter(e -> e.completedNanos() < at).toList());
      }
      assertThat(rec.holdEndNanos()).isGreaterThanOrEqualTo(rec.startNanos() + 200_000_000L);
      assertThat(rec.holdEndNanos()).isLessThan(rec.startNanos() + 10_000_000_000L);
    }
  }

  @Test
  void run_holdCheckThrows_theHoldEndsTheWorkersFinishAndTheFailureIsRaised() throws Exception {
    try (FakeTtsServer server = serial();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri());
        ClosedLoopDriver driver =
            new ClosedLoopDriver(invoker, TEXTS, NanoClock.SYSTEM, RequestListener.NONE)) {
      ClosedLoopDriver.HoldCheck broken =
          new ClosedLoopDriver.HoldCheck() {
            @Override
            public Duration first() {
              return Duration.ofMillis(50);
            }

            @Override
            public Duration every() {
              return Duration.ofMillis(50);
            }

            @Override
            public boolean enough(long startNanos, long checkpointNanos, List<RequestEvent> e) {
              throw new IllegalStateException("broken check");
            }
          };

      assertThatThrownBy(() -> driver.run(0, 0, 2, Duration.ofSeconds(30), broken))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("broken check");
      // run returned, so every worker ended (run joins them); the driver refuses more rungs
      assertThat(driver.stopped()).isTrue();
      assertThatThrownBy(() -> driver.run(0, 1, 1, Duration.ofMillis(10)))
          .isInstanceOf(LoadgenException.class)
          .hasMessageContaining("the driver was stopped");
    }
  }
}
