package dev.speechscale.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.NanoClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class AdmissionGateTest {

  /**
   * The threads the tests' waiters and clients run on: virtual here, as the server runs requests;
   * {@link AdmissionGateOnPlatformThreadsTest} runs every test again on platform threads, as the
   * bidi session and a platform's own callers use the gate.
   */
  Thread.Builder threads() {
    return Thread.ofVirtual();
  }

  private static final long FAR = Duration.ofHours(1).toNanos();
  private final FakeTicker ticker = new FakeTicker();

  private AdmissionGate gate(int max, int slots) {
    return new AdmissionGate(GateConfig.of(max, slots), ticker);
  }

  private static Permit admitted(Admission admission) {
    assertThat(admission).isInstanceOf(Admission.Admitted.class);
    return ((Admission.Admitted) admission).permit();
  }

  /** Admits a request and starts it: the slot is busy until the returned permit ends. */
  private Permit holding(AdmissionGate gate) {
    Permit holder = admitted(gate.admit());
    holder.awaitTurn(ticker.nanoTime() + FAR);
    return holder;
  }

  /** A permit awaiting its turn on its own thread. */
  private record Waiting(Thread thread, AtomicReference<Turn> turn) {
    /** Waits (bounded) for the thread to end; returns the turn the permit got. */
    Turn join() throws InterruptedException {
      assertThat(thread.join(Duration.ofSeconds(10))).isTrue();
      return turn.get();
    }
  }

  /**
   * Starts {@code permit} awaiting its turn by {@code deadlineNanos} on its own thread (closing it
   * afterwards when {@code closeAfter}, as a request handler does) and waits until it is queued.
   */
  private Waiting queue(AdmissionGate gate, Permit permit, long deadlineNanos, boolean closeAfter) {
    int before = gate.snapshot().queued();
    var turn = new AtomicReference<Turn>();
    Thread t =
        threads()
            .start(() -> {
              try {
                turn.set(permit.awaitTurn(deadlineNanos));
              } finally {
                if (closeAfter) {
                  permit.close();
                }
              }
            });
    Await.until(() -> gate.snapshot().queued() == before + 1, "waiter queued");
    return new Waiting(t, turn);
  }

  @Test
  void admit_underBound_countsInFlight() {
    AdmissionGate gate = gate(2, 1);
    Permit first = admitted(gate.admit());
    assertThat(gate.inFlight()).isEqualTo(1);
    first.close();
    assertThat(gate.inFlight()).isZero();
  }

  @Test
  void admit_atBound_returnsSaturatedWithDepths() {
    AdmissionGate gate = gate(2, 1);
    admitted(gate.admit());
    admitted(gate.admit());
    Admission third = gate.admit();
    assertThat(third).isEqualTo(new Admission.Saturated(2, 2));
    assertThat(gate.snapshot().saturatedTotal()).isEqualTo(1);
  }

  @Test
  void refuseIfFull_belowBound_admitsNothing_atBound_refusesAndCounts() {
    AdmissionGate gate = gate(1, 1);
    assertThat(gate.refuseIfFull()).isEmpty();
    assertThat(gate.inFlight()).isZero();
    assertThat(gate.snapshot().admittedTotal()).isZero();
    Permit held = admitted(gate.admit());
    assertThat(gate.refuseIfFull()).contains(new Admission.Saturated(1, 1));
    assertThat(gate.snapshot().saturatedTotal()).isEqualTo(1);
    held.close();
    gate.stopAdmitting();
    assertThat(gate.refuseIfFull()).contains(new Admission.ShuttingDown(0));
  }

  @Test
  void admit_zeroBound_neverSaturates() {
    AdmissionGate gate = gate(0, 1);
    for (int i = 0; i < 1000; i++) {
      admitted(gate.admit());
    }
    assertThat(gate.inFlight()).isEqualTo(1000);
  }

  @Test
  void close_calledTwice_releasesOnce() {
    AdmissionGate gate = gate(5, 1);
    Permit keep = admitted(gate.admit());
    Permit twice = admitted(gate.admit());
    twice.close();
    twice.close();
    assertThat(gate.inFlight()).isEqualTo(1);
    assertThat(keep.isClosed()).isFalse();
  }

  @Test
  void close_onExceptionPaths_neverLeaks() {
    AdmissionGate gate = gate(3, 1);
    Random random = new Random(42);
    for (int i = 0; i < 10_000; i++) {
      try (Permit permit = admitted(gate.admit())) {
        int path = random.nextInt(4);
        if (path == 0) {
          throw new IllegalStateException("malformed body");
        }
        Turn turn = permit.awaitTurn(ticker.plus(Duration.ofSeconds(1)));
        assertThat(turn).isInstanceOf(Turn.Started.class);
        if (path == 1) {
          throw new IllegalStateException("engine failed");
        }
        if (path == 2) {
          permit.endExecution();
          throw new IllegalStateException("client hung up mid-stream");
        }
      } catch (IllegalStateException expected) {
        // every path above must still release the permit
      }
    }
    GateSnapshot after = gate.snapshot();
    assertThat(after.inFlight()).isZero();
    assertThat(after.executing()).isZero();
    assertThat(after.admittedTotal()).isEqualTo(10_000);
    assertThat(gate.admit()).isInstanceOf(Admission.Admitted.class);
  }

  @Test
  void awaitTurn_calledTwice_throwsNamingState() {
    AdmissionGate gate = gate(1, 1);
    Permit permit = admitted(gate.admit());
    permit.awaitTurn(ticker.plus(Duration.ofSeconds(1)));
    assertThatThrownBy(() -> permit.awaitTurn(ticker.plus(Duration.ofSeconds(1))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("EXECUTING");
  }

  @Test
  void tryTurn_freeSlot_startsWithoutWaiting() {
    AdmissionGate gate = gate(5, 1);
    Permit permit = admitted(gate.admit());
    assertThat(permit.tryTurn(ticker.nanoTime() + FAR)).containsInstanceOf(Turn.Started.class);
    assertThat(gate.snapshot().executing()).isEqualTo(1);
    permit.close();
    assertThat(gate.snapshot().executing()).isZero();
    assertThat(gate.inFlight()).isZero();
  }

  @Test
  void tryTurn_slotBusy_changesNothingAndAwaitTurnStillQueues() throws Exception {
    AdmissionGate gate = gate(5, 1);
    Permit holder = holding(gate);
    Permit waiter = admitted(gate.admit());
    assertThat(waiter.tryTurn(ticker.nanoTime() + FAR)).isEmpty();
    assertThat(gate.snapshot().queued()).isZero();
    Waiting queued = queue(gate, waiter, ticker.nanoTime() + FAR, true);
    holder.close();
    assertThat(queued.join()).isInstanceOf(Turn.Started.class);
    assertThat(gate.inFlight()).isZero();
  }

  @Test
  void tryTurn_waiterAlreadyQueued_doesNotJumpTheQueue() throws Exception {
    AdmissionGate gate = gate(5, 1);
    Permit holder = holding(gate);
    Permit first = admitted(gate.admit());
    CountDownLatch done = new CountDownLatch(1);
    Thread t =
        threads()
            .start(() -> {
              try (first) {
                first.awaitTurn(ticker.nanoTime() + FAR);
                done.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    Await.until(() -> gate.snapshot().queued() == 1, "first waiter queued");
    holder.endExecution(); // the slot goes to the queued waiter, not to a newcomer
    Permit late = admitted(gate.admit());
    assertThat(late.tryTurn(ticker.nanoTime() + FAR)).isEmpty();
    late.close();
    done.countDown();
    assertThat(t.join(Duration.ofSeconds(10))).isTrue();
    holder.close();
    assertThat(gate.inFlight()).isZero();
  }

  @Test
  void tryTurn_deadlineUnreachableAndSlotBusy_shedsAndCounts() {
    AdmissionGate gate = new AdmissionGate(new GateConfig(5, 1, Duration.ofMillis(100)), ticker);
    Permit holder = holding(gate);
    Permit permit = admitted(gate.admit());
    assertThat(permit.tryTurn(ticker.plus(Duration.ofMillis(60))))
        .containsInstanceOf(Turn.Shed.class);
    permit.close();
    holder.close();
    assertThat(gate.snapshot().shedTotal()).isEqualTo(1);
    assertThat(gate.inFlight()).isZero();
  }

  @Test
  void tryTurn_estimateAboveDeadlineButSlotFree_starts() {
    AdmissionGate gate = new AdmissionGate(new GateConfig(5, 1, Duration.ofMinutes(5)), ticker);
    Permit permit = admitted(gate.admit());
    assertThat(permit.tryTurn(ticker.plus(Duration.ofSeconds(56))))
        .containsInstanceOf(Turn.Started.class);
    permit.close();
    assertThat(gate.snapshot().shedTotal()).isZero();
  }

  @Test
  void awaitTurn_estimateOnceAboveMaxAge_gateRecoversAndQueuesAgain() throws Exception {
    // one pathological request (a 10-minute first byte) lifts the estimate far above the 56 s age
    AdmissionGate gate = gate(5, 1);
    long age = Duration.ofSeconds(56).toNanos();
    Permit slow = admitted(gate.admit());
    assertThat(slow.awaitTurn(ticker.nanoTime() + age)).isInstanceOf(Turn.Started.class);
    ticker.advance(Duration.ofMinutes(10));
    slow.firstByte();
    slow.close();
    assertThat(gate.snapshot().firstByteEstimateNanos()).isGreaterThan(age);

    // every later request finds the slot free: it must start, and its fast first byte teaches
    for (int i = 0; i < 40; i++) {
      try (Permit next = admitted(gate.admit())) {
        assertThat(next.awaitTurn(ticker.nanoTime() + age))
            .as("request %d found a free slot", i)
            .isInstanceOf(Turn.Started.class);
        ticker.advance(Duration.ofMillis(50));
        next.firstByte();
      }
    }
    assertThat(gate.snapshot().firstByteEstimateNanos())
        .isLessThan(Duration.ofSeconds(1).toNanos());

    // and a request that has to queue behind a busy slot queues again instead of being shed
    Permit holder = admitted(gate.admit());
    holder.awaitTurn(ticker.nanoTime() + age);
    Permit waiter = admitted(gate.admit());
    Waiting queued = queue(gate, waiter, ticker.nanoTime() + age, false);
    holder.close();
    assertThat(queued.join()).isInstanceOf(Turn.Started.class);
    waiter.close();
    assertThat(gate.snapshot().shedTotal()).isZero();
    assertThat(gate.inFlight()).isZero();
  }

  @Test
  void tryTurn_afterATurn_throwsNamingState() {
    AdmissionGate gate = gate(1, 1);
    Permit permit = admitted(gate.admit());
    permit.tryTurn(ticker.nanoTime() + FAR);
    assertThatThrownBy(() -> permit.awaitTurn(ticker.nanoTime() + FAR))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("EXECUTING");
  }

  @Test
  void endExecution_streamingRequest_passesSlotButStaysInFlight() {
    AdmissionGate gate = gate(5, 1);
    Permit streaming = admitted(gate.admit());
    streaming.awaitTurn(ticker.nanoTime() + FAR);
    streaming.endExecution();
    Permit next = admitted(gate.admit());
    assertThat(next.awaitTurn(ticker.nanoTime() + FAR)).isInstanceOf(Turn.Started.class);
    GateSnapshot s = gate.snapshot();
    assertThat(s.inFlight()).isEqualTo(2);
    assertThat(s.executing()).isEqualTo(1);
    assertThat(s.streaming()).isEqualTo(1);
  }

  @Test
  void awaitTurn_slotsBusy_grantsInFifoOrder() throws Exception {
    AdmissionGate gate = gate(10, 1);
    Permit holder = holding(gate);
    ConcurrentLinkedQueue<Integer> order = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      int id = i;
      Permit permit = admitted(gate.admit());
      int queuedBefore = gate.snapshot().queued();
      Thread t =
          threads()
              .start(() -> {
                try (permit) {
                  if (permit.awaitTurn(ticker.nanoTime() + FAR) instanceof Turn.Started) {
                    order.add(id);
                  }
                }
              });
      threads.add(t);
      Await.until(() -> gate.snapshot().queued() == queuedBefore + 1, "waiter " + id + " queued");
    }
    holder.close();
    for (Thread t : threads) {
      assertThat(t.join(Duration.ofSeconds(10))).isTrue();
    }
    assertThat(order).containsExactly(0, 1, 2, 3, 4);
    assertThat(gate.inFlight()).isZero();
  }

  @Test
  void awaitTurn_deadlineUnreachableAndSlotBusy_shedsWithoutQueueing() {
    AdmissionGate gate = new AdmissionGate(new GateConfig(5, 1, Duration.ofMillis(100)), ticker);
    Permit holder = holding(gate);
    Permit permit = admitted(gate.admit());
    Turn turn = permit.awaitTurn(ticker.plus(Duration.ofMillis(60)));
    assertThat(turn).isInstanceOf(Turn.Shed.class);
    assertThat(((Turn.Shed) turn).lateBy()).isEqualTo(Duration.ofMillis(40));
    permit.close();
    holder.close();
    assertThat(gate.snapshot().shedTotal()).isEqualTo(1);
    assertThat(gate.inFlight()).isZero();
  }

  @Test
  void releaseSlot_headCannotMeetDeadline_shedsHeadAndStartsNext() throws Exception {
    AdmissionGate gate = new AdmissionGate(new GateConfig(5, 1, Duration.ofMillis(100)), ticker);
    Permit holder = holding(gate);
    Permit tight = admitted(gate.admit());
    Permit loose = admitted(gate.admit());
    Waiting tightQueued = queue(gate, tight, ticker.plus(Duration.ofSeconds(1)), false);
    Waiting looseQueued = queue(gate, loose, ticker.plus(Duration.ofHours(2)), false);

    ticker.advance(Duration.ofMillis(950)); // tight's first byte would now land 50 ms late
    holder.close();

    Turn tightTurn = tightQueued.join();
    assertThat(tightTurn).isInstanceOf(Turn.Shed.class);
    assertThat(tightTurn.queued()).isEqualTo(Duration.ofMillis(950));
    assertThat(looseQueued.join()).isInstanceOf(Turn.Started.class);
    tight.close();
    loose.close();
    assertThat(gate.snapshot())
        .extracting(GateSnapshot::inFlight, GateSnapshot::executing)
        .containsExactly(0, 0);
  }

  @Test
  void shedExpired_clockPastLatestStart_shedsWaiter() throws Exception {
    AdmissionGate gate = new AdmissionGate(new GateConfig(5, 1, Duration.ofMillis(10)), ticker);
    Permit holder = holding(gate);
    Permit waiter = admitted(gate.admit());
    Waiting queued = queue(gate, waiter, ticker.plus(Duration.ofSeconds(5)), false);

    assertThat(gate.shedExpired()).isZero();
    ticker.advance(Duration.ofSeconds(5));
    assertThat(gate.shedExpired()).isEqualTo(1);

    assertThat(queued.join()).isInstanceOf(Turn.Shed.class);
    assertThat(gate.snapshot().queued()).isZero();
    waiter.close();
    holder.close();
    assertThat(gate.inFlight()).isZero();
  }

  @Test
  void close_whileQueued_cancelsWaitAndReleases() throws Exception {
    AdmissionGate gate = gate(5, 1);
    Permit holder = holding(gate);
    Permit waiter = admitted(gate.admit());
    Waiting queued = queue(gate, waiter, ticker.nanoTime() + FAR, false);

    waiter.close(); // e.g. the client hung up while queued

    assertThat(queued.join()).isInstanceOf(Turn.Cancelled.class);
    assertThat(gate.snapshot())
        .extracting(GateSnapshot::inFlight, GateSnapshot::queued)
        .containsExactly(1, 0);
    holder.close();
    assertThat(gate.snapshot().executing()).isZero();
  }

  @Test
  void abandonWhileQueued_clientLeft_waiterCancelledAndNextInLineStarts() throws Exception {
    AdmissionGate gate = gate(5, 1);
    Permit holder = holding(gate);
    Permit gone = admitted(gate.admit());
    Waiting goneQueued = queue(gate, gone, ticker.nanoTime() + FAR, true);
    Permit next = admitted(gate.admit());
    Waiting nextQueued = queue(gate, next, ticker.nanoTime() + FAR, false);

    assertThat(gone.abandonWhileQueued()).isTrue();
    assertThat(goneQueued.join()).isInstanceOf(Turn.Cancelled.class);
    assertThat(gate.snapshot())
        .extracting(GateSnapshot::inFlight, GateSnapshot::queued)
        .containsExactly(2, 1);

    holder.close();
    assertThat(nextQueued.join()).isInstanceOf(Turn.Started.class);
    assertThat(next.abandonWhileQueued()).as("a started request is never abandoned").isFalse();
    assertThat(gate.snapshot().executing()).isEqualTo(1);
    next.close();
    assertThat(gate.snapshot())
        .extracting(GateSnapshot::inFlight, GateSnapshot::queued, GateSnapshot::executing)
        .containsExactly(0, 0, 0);
  }

  @Test
  void abandonWhileQueued_beforeTheTurn_turnIsCancelledAndNothingQueues() {
    AdmissionGate gate = gate(5, 1);
    Permit permit = admitted(gate.admit());
    assertThat(permit.abandonWhileQueued()).isTrue();
    assertThat(permit.awaitTurn(ticker.nanoTime() + FAR)).isInstanceOf(Turn.Cancelled.class);
    permit.close();
    assertThat(gate.snapshot())
        .extracting(GateSnapshot::inFlight, GateSnapshot::queued, GateSnapshot::executing)
        .containsExactly(0, 0, 0);
  }

  @Test
  void awaitTurn_interruptedWhileQueued_returnsCancelledAndKeepsCountsRight() throws Exception {
    AdmissionGate gate = gate(5, 1);
    Permit holder = holding(gate);
    Permit waiter = admitted(gate.admit());
    Waiting queued = queue(gate, waiter, ticker.nanoTime() + FAR, true);
    queued.thread().interrupt();
    assertThat(queued.join()).isInstanceOf(Turn.Cancelled.class);
    holder.close();
    assertThat(gate.snapshot())
        .extracting(GateSnapshot::inFlight, GateSnapshot::queued, GateSnapshot::executing)
        .containsExactly(0, 0, 0);
  }

  @Test
  void firstByte_observed_updatesEstimateOnce() {
    AdmissionGate gate = gate(5, 1);
    Permit permit = admitted(gate.admit());
    permit.awaitTurn(ticker.nanoTime() + FAR);
    ticker.advance(Duration.ofMillis(40));
    permit.firstByte();
    ticker.advance(Duration.ofMillis(400));
    permit.firstByte();
    assertThat(gate.snapshot().firstByteEstimateNanos()).isEqualTo(Duration.ofMillis(40).toNanos());
  }

  @Test
  void stopAdmitting_refusesNewAndDrainsOld() throws Exception {
    AdmissionGate gate = gate(5, 1);
    Permit open = admitted(gate.admit());
    gate.stopAdmitting();
    assertThat(gate.admit()).isEqualTo(new Admission.ShuttingDown(1));
    assertThat(gate.awaitIdle(Duration.ofMillis(1))).isFalse();
    CountDownLatch closed = new CountDownLatch(1);
    threads()
        .start(() -> {
          open.close();
          closed.countDown();
        });
    assertThat(gate.awaitIdle(Duration.ofSeconds(10))).isTrue();
    assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void concurrentMixedPaths_realClock_leaveGateEmpty() throws Exception {
    AdmissionGate gate = new AdmissionGate(GateConfig.of(8, 2), NanoClock.SYSTEM);
    Random seeds = new Random(7);
    try (ExecutorService pool = Executors.newThreadPerTaskExecutor(threads().factory())) {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < 2000; i++) {
        long seed = seeds.nextLong();
        futures.add(
            pool.submit(() -> {
              Random r = new Random(seed);
              if (!(gate.admit() instanceof Admission.Admitted(Permit permit))) {
                return;
              }
              try (permit) {
                long deadline = System.nanoTime() + Duration.ofMillis(r.nextInt(1, 50)).toNanos();
                if (permit.awaitTurn(deadline) instanceof Turn.Started) {
                  permit.firstByte();
                  if (r.nextBoolean()) {
                    permit.endExecution();
                  }
                  if (r.nextInt(5) == 0) {
                    throw new IllegalStateException("simulated failure");
                  }
                }
              }
            }));
      }
      int failures = 0;
      for (Future<?> f : futures) {
        try {
          f.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
          assertThat(e.getCause()).hasMessage("simulated failure");
          failures++;
        }
      }
      assertThat(failures).isPositive();
    }
    GateSnapshot s = gate.snapshot();
    assertThat(s.inFlight()).isZero();
    assertThat(s.queued()).isZero();
    assertThat(s.executing()).isZero();
    assertThat(s.admittedTotal() + s.saturatedTotal()).isEqualTo(2000);
  }
}
