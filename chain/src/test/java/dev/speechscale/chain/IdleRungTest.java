package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.artifacts.IdleStartRung;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.ResponseBreakdown;
import dev.speechscale.platform.SynthesisRequest;
import dev.speechscale.platform.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

/**
 * qmax's open-loop idle-start rung on real time (a 2 s rung at most): what it offers, what it
 * records and when it records nothing.
 */
class IdleRungTest {
  private static final List<QmaxStep> LADDER = Recorded.quickstartQmax().steps();
  private static final double BEST =
      LADDER.stream()
          .filter(s -> s.isUsable() && s.achievedRps() != null)
          .mapToDouble(QmaxStep::achievedRps)
          .max()
          .orElseThrow();

  @Test
  void length_aimsAtItsRequestsBetweenOneAndAHalfAndFourWindows() {
    // a best rung of 16.80 req/s (run l's quickstart): 0.45 x 16.80 = 7.56 req/s, 150 requests
    // in 19.84 s, inside 7.5..20 s for a 5 s window
    assertThat(IdleRung.length(Duration.ofSeconds(5), 16.80)).isEqualTo(Duration.ofMillis(19842));
    // a 20 s window: at least 30 s
    assertThat(IdleRung.length(Duration.ofSeconds(20), 16.80)).isEqualTo(Duration.ofSeconds(30));
    // a slow instance (1 req/s): 333 s wanted, at most 4 windows
    assertThat(IdleRung.length(Duration.ofSeconds(5), 1.0)).isEqualTo(Duration.ofSeconds(20));
    // no throughput: one and a half windows
    assertThat(IdleRung.length(Duration.ofSeconds(5), 0)).isEqualTo(Duration.ofMillis(7500));
  }

  @Test
  void run_offersItsShareOfTheBestRungAndCountsEveryServedRequestOnce() {
    List<RequestEvent> logged = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    // the recorded quickstart's best rung, 11.00 req/s, and a 0.5 s window: the rung runs its 2 s
    // bound at 4.95 req/s, about 10 requests
    assertThat(BEST).isEqualTo(11.00, within(1e-9));
    IdleStartRung rung =
        IdleRung.run(
            serial(Duration.ofMillis(20), true),
            TextPool.shuffled(List.of("The birch canoe slid on the smooth planks."), 1),
            NanoClock.SYSTEM,
            logged::add,
            LADDER,
            Duration.ofMillis(500),
            1,
            notes::add);

    assertThat(rung).isNotNull();
    assertThat(rung.rateRps()).isEqualTo(0.45 * 11.00, within(1e-9));
    assertThat(rung.loadShare()).isEqualTo(0.45);
    assertThat(rung.seconds()).isEqualTo(2.0);
    long ok = logged.stream().filter(RequestEvent::ok).count();
    assertThat(ok).isPositive();
    assertThat(rung.idleRequests() + rung.queuedRequests()).isEqualTo((int) ok);
    // fewer than 30 of each kind: measured, no factors, and it says so
    assertThat(rung.idleStart("q.json")).isEmpty();
    assertThat(rung.note()).contains("30 of each are needed for a factor");
    assertThat(notes.getFirst())
        .isEqualTo(
            "idle-start rung: open-loop Poisson at 4.95 req/s (0.45 x the ladder's best 11.00"
                + " req/s) for 2 s");
    assertThat(notes.getLast()).isEqualTo("idle-start rung: " + rung.summary());
  }

  @Test
  void run_responsesWithoutTheirQueueWait_recordNothingAndSayWhy() {
    List<String> notes = new ArrayList<>();
    IdleStartRung rung =
        IdleRung.run(
            serial(Duration.ofMillis(5), false),
            TextPool.shuffled(List.of("A short one."), 1),
            NanoClock.SYSTEM,
            RequestListener.NONE,
            LADDER,
            Duration.ofMillis(500),
            1,
            notes::add);

    assertThat(rung).isNull();
    assertThat(notes.getLast())
        .isEqualTo(
            "idle-start rung: not recorded, a response did not say its queue wait"
                + " (X-Queue-Wait-Us), so idle and queued requests cannot be told apart");
  }

  @Test
  void run_aLadderWithoutAUsableThroughput_isSkippedWithoutARequest() {
    ConcurrentLinkedQueue<RequestEvent> logged = new ConcurrentLinkedQueue<>();
    List<String> notes = new ArrayList<>();
    IdleStartRung rung =
        IdleRung.run(
            serial(Duration.ofMillis(5), true),
            TextPool.shuffled(List.of("A short one."), 1),
            NanoClock.SYSTEM,
            logged::add,
            List.of(),
            Duration.ofSeconds(5),
            1,
            notes::add);

    assertThat(rung).isNull();
    assertThat(logged).isEmpty();
    assertThat(notes)
        .containsExactly(
            "idle-start rung: skipped, the ladder has no usable rung with a throughput");
  }

  /**
   * An endpoint with one server on real time: a request waits for it, holds it {@code service} and
   * says how long it waited when {@code saysQueueWait}.
   */
  private static Invoker serial(Duration service, boolean saysQueueWait) {
    ReentrantLock server = new ReentrantLock(true);
    return new Invoker() {
      @Override
      public Transport transport() {
        return Transport.HTTP_STREAM;
      }

      @Override
      public Connection connect() {
        return new Connection() {
          @Override
          public Invocation invoke(SynthesisRequest request) {
            long sent = System.nanoTime();
            server.lock();
            try {
              long start = System.nanoTime();
              sleep(service.dividedBy(2));
              long first = System.nanoTime();
              sleep(service.dividedBy(2));
              ResponseBreakdown b =
                  saysQueueWait
                      ? new ResponseBreakdown(
                          (start - sent) / 1000, service.toNanos() / 2000, 1.0, null)
                      : ResponseBreakdown.UNKNOWN;
              return new Invocation(
                  Invocation.Outcome.OK, 200, sent, first, System.nanoTime(), 3200, null, b);
            } finally {
              server.unlock();
            }
          }

          @Override
          public void close() {}
        };
      }

      @Override
      public void close() {}
    };
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
