package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.loadgen.FakeTtsServer.Reply;
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.ResponseBreakdown;
import dev.speechscale.platform.SynthesisRequest;
import dev.speechscale.platform.Transport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

class OpenLoopDriverTest {
  private static final TextPool TEXTS = TextPool.shuffled(List.of("one", "two"), 1);

  @Test
  void run_constantArrivals_everyArrivalSentOrDroppedAndTimedFromItsSlot() throws Exception {
    try (FakeTtsServer server = FakeTtsServer.fast();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri());
        OpenLoopDriver driver =
            new OpenLoopDriver(invoker, TEXTS, NanoClock.SYSTEM, RequestListener.NONE)) {
      OpenLoopResult result =
          driver.run(
              OpenLoopSpec.constant(
                  100, Duration.ofMillis(300), OpenLoopSpec.Arrivals.CONSTANT, 16, 1));

      OpenLoopResult.PhaseResult phase = result.phases().get(0);
      assertThat(phase.intended()).isEqualTo(30);
      assertThat(phase.sent() + phase.dropped()).isEqualTo(phase.intended());
      assertThat(result.events()).hasSize((int) phase.sent());
      assertThat(result.events())
          .allMatch(e -> e.loadModel() == RequestEvent.LoadModel.OPEN_LOOP)
          .allMatch(e -> e.sentNanos() >= e.intendedNanos())
          .allMatch(e -> e.latencyNanos() == e.completedNanos() - e.intendedNanos());
      long[] intended = result.events().stream().mapToLong(RequestEvent::intendedNanos).toArray();
      for (int i = 1; i < intended.length; i++) {
        assertThat((intended[i] - intended[i - 1]) % 10_000_000L).isZero(); // slots 10 ms apart
      }
      assertThat(phase.ttfabHistogram().getTotalCount()).isEqualTo(phase.ok());
    }
  }

  @Test
  void run_boundReachedBehindASlowServer_dropsAreCountedAndLogged() throws Exception {
    ConcurrentLinkedQueue<Long> drops = new ConcurrentLinkedQueue<>();
    RequestListener listener =
        new RequestListener() {
          @Override
          public void completed(RequestEvent event) {}

          @Override
          public void dropped(int phase, long seq, long intendedNanos) {
            drops.add(seq);
          }
        };
    try (FakeTtsServer server =
            new FakeTtsServer(1, Duration.ofMillis(60), Duration.ZERO, n -> Reply.OK);
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri());
        OpenLoopDriver driver = new OpenLoopDriver(invoker, TEXTS, NanoClock.SYSTEM, listener)) {
      OpenLoopResult result =
          driver.run(
              OpenLoopSpec.constant(
                  200, Duration.ofMillis(100), OpenLoopSpec.Arrivals.CONSTANT, 1, 1));

      assertThat(result.dropped()).isPositive();
      assertThat(drops).hasSize((int) result.dropped());
      assertThat(server.maxOutstanding()).isEqualTo(1);
      assertThat(result.phases().get(0).sent() + result.dropped()).isEqualTo(20);
    }
  }

  @Test
  void run_poissonArrivals_sameSeedSameSchedule() {
    OpenLoopSpec spec =
        OpenLoopSpec.constant(500, Duration.ofMillis(100), OpenLoopSpec.Arrivals.POISSON, 64, 7);

    List<Long> first = offsets(spec);
    List<Long> second = offsets(spec);

    assertThat(first).isEqualTo(second);
    assertThat(first).hasSizeGreaterThan(10);
    assertThat(offsets(new OpenLoopSpec(spec.phases(), spec.arrivals(), 64, 8, Duration.ZERO)))
        .isNotEqualTo(first);
  }

  @Test
  void run_poissonArrivals_sameOffsetsFromTheStartWhateverTheClockReads() {
    // shards in different processes start at different nanoTime readings; far from zero a double
    // holding the absolute time rounds to hundreds of nanoseconds, so arrivals must be offsets
    OpenLoopSpec spec =
        OpenLoopSpec.constant(2000, Duration.ofMillis(60), OpenLoopSpec.Arrivals.POISSON, 64, 5);

    List<Long> nearZero = startOffsets(spec, 0);
    List<Long> farOut = startOffsets(spec, 4_000_000_000_000_000_000L);

    assertThat(nearZero).hasSizeGreaterThan(50);
    assertThat(farOut).isEqualTo(nearZero);
  }

  /** Intended times minus the schedule's start, on a clock reading {@code base} + system time. */
  private static List<Long> startOffsets(OpenLoopSpec spec, long base) {
    long[] start = new long[1];
    RequestListener listener =
        new RequestListener() {
          @Override
          public void completed(RequestEvent event) {}

          @Override
          public void scheduleStarted(long startNanos) {
            start[0] = startNanos;
          }
        };
    NanoClock shifted = () -> base + System.nanoTime();
    try (OpenLoopDriver driver = new OpenLoopDriver(instantInvoker(), TEXTS, shifted, listener)) {
      return driver.run(spec).events().stream().map(e -> e.intendedNanos() - start[0]).toList();
    }
  }

  @Test
  void run_phases_attributeRequestsByIntendedTime() {
    OpenLoopSpec spec =
        new OpenLoopSpec(
            List.of(
                new OpenLoopSpec.Phase("baseline", 50, Duration.ofMillis(100)),
                new OpenLoopSpec.Phase("surge", 150, Duration.ofMillis(100))),
            OpenLoopSpec.Arrivals.CONSTANT,
            64,
            1,
            Duration.ofMillis(5));

    OpenLoopResult result = runInstant(spec);

    assertThat(result.phases())
        .extracting(OpenLoopResult.PhaseResult::intended)
        .containsExactly(5L, 15L);
    assertThat(result.phases())
        .extracting(OpenLoopResult.PhaseResult::name)
        .containsExactly("baseline", "surge");
    assertThat(result.events()).filteredOn(e -> e.stepIndex() == 1).hasSize(15);
  }

  @Test
  void run_lateSend_countedAsLate() {
    OpenLoopSpec spec =
        new OpenLoopSpec(
            List.of(new OpenLoopSpec.Phase("p", 100, Duration.ofMillis(50))),
            OpenLoopSpec.Arrivals.CONSTANT,
            64,
            1,
            Duration.ZERO);
    // an invoker that reports every send 1 ms after it was asked: later than a 0 ms threshold
    Invoker lagging =
        new FakeInvoker(clock -> {
          long sent = clock.nanoTime() + 1_000_000;
          return new Invocation(
              Outcome.OK, 200, sent, sent + 1, sent + 2, 10, null, ResponseBreakdown.UNKNOWN);
        });
    try (OpenLoopDriver driver =
        new OpenLoopDriver(lagging, TEXTS, NanoClock.SYSTEM, RequestListener.NONE)) {
      OpenLoopResult result = driver.run(spec);

      assertThat(result.late()).isEqualTo(5);
      assertThat(result.phases().get(0).maxSendLagMs()).isGreaterThanOrEqualTo(1.0);
    }
  }

  @Test
  void run_schedule_sendsAtEachGivenTimeGroupedByPhase() {
    OpenLoopSpec spec =
        new OpenLoopSpec(
            List.of(
                new OpenLoopSpec.Phase("a", 0, Duration.ofMillis(20)),
                new OpenLoopSpec.Phase("b", 0, Duration.ofMillis(20))),
            OpenLoopSpec.Arrivals.POISSON,
            64,
            1,
            Duration.ofMillis(5));
    double[] times = {0.001, 0.005, 0.005, 0.025, 0.039, 0.050};
    int[] i = {0};
    OpenLoopResult result;
    try (OpenLoopDriver driver =
        new OpenLoopDriver(instantInvoker(), TEXTS, NanoClock.SYSTEM, RequestListener.NONE)) {
      result = driver.run(spec, () -> i[0] < times.length ? times[i[0]++] : Double.NaN);
    }

    assertThat(result.phases().get(0).intended()).isEqualTo(3);
    assertThat(result.phases().get(1).intended()).isEqualTo(2); // 0.050 s is past the end
    List<RequestEvent> events = result.events();
    assertThat(events.get(1).intendedNanos() - events.get(0).intendedNanos()).isEqualTo(4_000_000L);
    assertThat(events.get(4).intendedNanos() - events.get(0).intendedNanos())
        .isEqualTo(38_000_000L);
  }

  @Test
  void run_scheduleGoingBack_refused() {
    OpenLoopSpec spec =
        OpenLoopSpec.constant(0, Duration.ofMillis(50), OpenLoopSpec.Arrivals.POISSON, 4, 1);
    double[] times = {0.002, 0.001};
    int[] i = {0};
    try (OpenLoopDriver driver =
        new OpenLoopDriver(instantInvoker(), TEXTS, NanoClock.SYSTEM, RequestListener.NONE)) {
      assertThatThrownBy(
              () -> driver.run(spec, () -> i[0] < times.length ? times[i[0]++] : Double.NaN))
          .isInstanceOf(LoadgenException.class)
          .hasMessageContaining("went back in time (0.001 s after 0.002 s)");
    }
  }

  @Test
  void spec_zeroBound_refused() {
    assertThatThrownBy(() ->
            OpenLoopSpec.constant(1, Duration.ofSeconds(1), OpenLoopSpec.Arrivals.CONSTANT, 0, 1))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("maxInFlight (0)");
  }

  @Test
  void phase_negativeRate_refused() {
    assertThatThrownBy(() -> new OpenLoopSpec.Phase("surge", -1, Duration.ofSeconds(1)))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("surge", "-1.0/s");
  }

  private static Invoker instantInvoker() {
    return new FakeInvoker(clock -> {
      long now = clock.nanoTime();
      return new Invocation(Outcome.OK, 200, now, now, now, 10, null, ResponseBreakdown.UNKNOWN);
    });
  }

  private static OpenLoopResult runInstant(OpenLoopSpec spec) {
    try (OpenLoopDriver driver =
        new OpenLoopDriver(instantInvoker(), TEXTS, NanoClock.SYSTEM, RequestListener.NONE)) {
      return driver.run(spec);
    }
  }

  private static List<Long> offsets(OpenLoopSpec spec) {
    List<RequestEvent> events = runInstant(spec).events();
    long origin = events.get(0).intendedNanos();
    return events.stream().map(e -> e.intendedNanos() - origin).toList();
  }

  /** An in-memory invoker answering with a function of the clock. */
  private static final class FakeInvoker implements Invoker {
    private final java.util.function.Function<NanoClock, Invocation> answer;

    FakeInvoker(java.util.function.Function<NanoClock, Invocation> answer) {
      this.answer = answer;
    }

    @Override
    public Transport transport() {
      return Transport.HTTP_STREAM;
    }

    @Override
    public Connection connect() {
      return new Connection() {
        @Override
        public Invocation invoke(SynthesisRequest request) {
          return answer.apply(NanoClock.SYSTEM);
        }

        @Override
        public void close() {}
      };
    }

    @Override
    public void close() {}
  }
}
