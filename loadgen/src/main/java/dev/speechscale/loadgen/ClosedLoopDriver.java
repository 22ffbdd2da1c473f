package dev.speechscale.loadgen;

import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.SynthesisRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * Holds N requests outstanding: N workers (platform threads by default, see {@link Workers}), each
 * with exactly one request in flight and its own connection, sending the next the moment the
 * previous ends — so queued + executing = N by construction, with no arrival schedule. Worker i
 * keeps connection i across rungs (keep-alive HTTP, or one WebSocket session).
 *
 * <p>The hold starts when all N workers are running (starting N threads takes time that must not
 * eat into a short hold), and every worker sends at least one request. Threads bound nothing here:
 * the bound is the worker count. A worker stops sending at the end of the hold and its in-flight
 * request is allowed to finish (a cut-off latency is a wrong latency), so {@link
 * RungRecording#endNanos()} is later than the hold's end by up to one response time. After a
 * transport error a worker pauses up to 10 ms before retrying, so a dead endpoint costs a rung's
 * hold, not a CPU spinning on refused connections.
 *
 * <p>Use from one thread; {@link #stop()} may be called from any thread and is final.
 */
public final class ClosedLoopDriver implements AutoCloseable {
  private static final long TRANSPORT_ERROR_PAUSE_NANOS = 10_000_000L;

  /** Bounds of one wait of a {@link HoldCheck} watch for its checkpoint: 2 ms to 20 ms. */
  private static final long WATCH_MIN_NANOS = 2_000_000L;

  private static final long WATCH_MAX_NANOS = 20_000_000L;

  private final Invoker invoker;
  private final TextPool texts;
  private final NanoClock clock;
  private final RequestListener listener;
  private final Workers threads;
  private final List<Invoker.Connection> connections = new ArrayList<>();
  private volatile long stopNanos = Long.MAX_VALUE;

  /**
   * @param invoker opens one connection per worker; the caller closes it after this driver
   * @param texts the request sequence, restarted at every rung
   * @param clock the clock requests are timed on — the invoker's clock
   * @param listener sees every request as it ends (e.g. a {@link JsonlEventLog})
   */
  public ClosedLoopDriver(
      Invoker invoker, TextPool texts, NanoClock clock, RequestListener listener) {
    this(invoker, texts, clock, listener, Workers.PLATFORM);
  }

  /**
   * @param threads what the workers run on; {@link Workers#PLATFORM} unless measuring the
   *     difference
   */
  public ClosedLoopDriver(
      Invoker invoker, TextPool texts, NanoClock clock, RequestListener listener, Workers threads) {
    this.invoker = invoker;
    this.texts = texts;
    this.clock = clock;
    this.listener = listener;
    this.threads = threads;
  }

  /**
   * What worker loops run on.
   *
   * <p>Platform threads by default, measured (measurements/loadgen-vs-wrk.md): a worker spends its
   * life blocked in one socket read per response, which on a platform thread is one system call and
   * one kernel wake-up; on a virtual thread the same read parks, registers the socket with the
   * JDK's poller and is resumed through the carrier pool — extra system calls and a scheduling hop
   * that cost request rate on 2 cores and add scheduling delay to the timestamp of the first audio
   * byte. N is bounded by the rung (hundreds at most), so N platform threads are cheap. Neither
   * kind bounds anything: the worker count does.
   */
  public enum Workers {
    PLATFORM,
    VIRTUAL;

    Thread.Builder builder() {
      return this == PLATFORM ? Thread.ofPlatform().daemon() : Thread.ofVirtual();
    }
  }

  /**
   * Runs one rung: N workers for {@code hold}, then waits for their last requests to end.
   *
   * @throws LoadgenException when N or the hold is not positive, after {@link #stop()}, or when the
   *     request listener failed (the first failure, after the rung ended)
   */
  public RungRecording run(int runIndex, int stepIndex, int concurrency, Duration hold) {
    return run(runIndex, stepIndex, concurrency, hold, null);
  }

  /**
   * Decides, at checkpoints during a hold, whether the hold may end there: how a rung is held until
   * its windows agree ({@link StabilityRule}).
   */
  interface HoldCheck {
    /** The first checkpoint, after the hold's start. */
    Duration first();

    /** The time between checkpoints; positive. */
    Duration every();

    /**
     * Whether the hold may end at the checkpoint.
     *
     * @param startNanos when the hold started
     * @param checkpointNanos the checkpoint
     * @param endedBefore every request that ended before the checkpoint (none is missing: each
     *     worker has sent a request after it, or finished)
     */
    boolean enough(long startNanos, long checkpointNanos, List<RequestEvent> endedBefore);
  }

  /**
   * Runs one rung for at most {@code hold}, ending it earlier at the first checkpoint {@code check}
   * accepts (when it is not {@code null}). A checkpoint is judged once every worker has sent a
   * request after it — so no request that ended before it is still on its way to the worker's list
   * — which takes up to one response time; the hold ends when the judgement is made, and the
   * requests sent in between are the rung's tail, as its drain is.
   */
  RungRecording run(
      int runIndex, int stepIndex, int concurrency, Duration hold, @Nullable HoldCheck check) {
    if (concurrency < 1) {
      throw new LoadgenException("concurrency (" + concurrency + ") must be at least 1");
    }
    if (hold.isNegative() || hold.isZero()) {
      throw new LoadgenException("hold (" + hold + ") must be positive");
    }
    if (stopped()) {
      throw new LoadgenException("the driver was stopped; make a new one to run again");
    }
    while (connections.size() < concurrency) {
      connections.add(invoker.connect());
    }
    AtomicLong seq = new AtomicLong();
    AtomicReference<RuntimeException> listenerFailure = new AtomicReference<>();
    List<List<RequestEvent>> perWorker = new ArrayList<>(concurrency);
    List<Thread> workers = new ArrayList<>(concurrency);
    StartGate gate = new StartGate(concurrency);
    for (int w = 0; w < concurrency; w++) {
      List<RequestEvent> mine = new ArrayList<>();
      perWorker.add(mine);
      Worker worker =
          new Worker(
              w,
              runIndex,
              stepIndex,
              concurrency,
              connections.get(w),
              seq,
              gate,
              mine,
              listenerFailure);
      workers.add(threads.builder().name("loadgen-worker-" + w).start(worker));
    }
    boolean interrupted = false;
    // the hold starts when every worker is running, however long starting N threads took
    while (true) {
      try {
        gate.ready.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
        stop();
      }
    }
    long start = clock.nanoTime();
    gate.holdEnd = start + hold.toNanos();
    gate.go.countDown();
    RuntimeException checkFailure = null;
    try {
      if (check != null && !watch(check, gate, perWorker, start)) {
        interrupted = true;
      }
    } catch (RuntimeException e) {
      checkFailure = e; // a broken check: end the hold, let the workers finish, then say so
      stop();
    }
    for (Thread t : workers) {
      while (true) {
        try {
          t.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
          stop(); // workers finish their in-flight request, bounded by the request timeout
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    long end = clock.nanoTime();
    try {
      listener.flush();
    } catch (RuntimeException e) {
      listenerFailure.compareAndSet(null, e);
    }
    if (checkFailure != null) {
      throw checkFailure;
    }
    if (listenerFailure.get() != null) {
      throw new LoadgenException(
          "the request listener failed during rung N="
              + concurrency
              + ": "
              + listenerFailure.get().getMessage(),
          listenerFailure.get());
    }
    List<RequestEvent> events = new ArrayList<>();
    for (List<RequestEvent> mine : perWorker) {
      synchronized (mine) {
        events.addAll(mine);
      }
    }
    events.sort(Comparator.comparingLong(RequestEvent::completedNanos));
    return new RungRecording(
        runIndex, stepIndex, concurrency, start, Math.min(gate.holdEnd, stopNanos), end, events);
  }

  /**
   * Judges {@code check}'s checkpoints before the hold's end and ends the hold at the first it
   * accepts; returns early when the driver is stopped. False when interrupted (the driver is then
   * stopped).
   */
  private boolean watch(
      HoldCheck check, StartGate gate, List<List<RequestEvent>> perWorker, long start) {
    long every = check.every().toNanos();
    for (long at = start + check.first().toNanos(); at < gate.holdEnd; at += every) {
      while (!gate.allPast(at)) {
        if (stopped()) {
          return true;
        }
        long wait = at - clock.nanoTime();
        LockSupport.parkNanos(Math.clamp(wait, WATCH_MIN_NANOS, WATCH_MAX_NANOS));
        if (Thread.interrupted()) {
          stop();
          return false;
        }
      }
      if (stopped()) {
        return true;
      }
      if (check.enough(start, at, endedBefore(perWorker, at))) {
        gate.holdEnd = Math.min(gate.holdEnd, Math.max(at, clock.nanoTime()));
        return true;
      }
    }
    return true;
  }

  /** Every recorded request that ended before {@code at}, by end time. */
  private static List<RequestEvent> endedBefore(List<List<RequestEvent>> perWorker, long at) {
    List<RequestEvent> out = new ArrayList<>();
    for (List<RequestEvent> mine : perWorker) {
      synchronized (mine) {
        for (RequestEvent e : mine) {
          if (e.completedNanos() < at) {
            out.add(e);
          }
        }
      }
    }
    out.sort(Comparator.comparingLong(RequestEvent::completedNanos));
    return out;
  }

  /** Ends the current hold now (in-flight requests finish) and refuses further rungs. */
  public void stop() {
    long now = clock.nanoTime();
    if (stopNanos == Long.MAX_VALUE) {
      stopNanos = now;
    }
  }

  public boolean stopped() {
    return stopNanos != Long.MAX_VALUE;
  }

  /** Closes the workers' connections (not the invoker). */
  @Override
  public void close() {
    for (Invoker.Connection c : connections) {
      c.close();
    }
    connections.clear();
  }

  /**
   * Releases the workers together once all N are running; the hold starts then. Also where each
   * worker says how far its requests are recorded, so a checkpoint is judged on all of them.
   */
  private static final class StartGate {
    final CountDownLatch ready;
    final CountDownLatch go = new CountDownLatch(1);

    /** Set before go opens; only ever moved earlier (a {@link HoldCheck} ended the hold). */
    volatile long holdEnd;

    /**
     * Per worker: every request of it that ended before this time is in its list (the moment it
     * last decided to send; {@link Long#MAX_VALUE} once it finished).
     */
    final AtomicLongArray recordedUntil;

    StartGate(int workers) {
      this.ready = new CountDownLatch(workers);
      this.recordedUntil = new AtomicLongArray(workers);
    }

    boolean allPast(long at) {
      for (int w = 0; w < recordedUntil.length(); w++) {
        if (recordedUntil.get(w) < at) {
          return false;
        }
      }
      return true;
    }
  }

  /** One worker's loop; it owns its connection and its event list. */
  private final class Worker implements Runnable {
    private final int index;
    private final int runIndex;
    private final int stepIndex;
    private final int concurrency;
    private final Invoker.Connection connection;
    private final AtomicLong seq;
    private final StartGate gate;
    private final List<RequestEvent> events;
    private final AtomicReference<RuntimeException> listenerFailure;

    Worker(
        int index,
        int runIndex,
        int stepIndex,
        int concurrency,
        Invoker.Connection connection,
        AtomicLong seq,
        StartGate gate,
        List<RequestEvent> events,
        AtomicReference<RuntimeException> listenerFailure) {
      this.index = index;
      this.runIndex = runIndex;
      this.stepIndex = stepIndex;
      this.concurrency = concurrency;
      this.connection = connection;
      this.seq = seq;
      this.gate = gate;
      this.events = events;
      this.listenerFailure = listenerFailure;
    }

    @Override
    public void run() {
      gate.ready.countDown();
      try {
        gate.go.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      try {
        loop();
      } finally {
        gate.recordedUntil.set(index, Long.MAX_VALUE);
      }
    }

    private void loop() {
      // every worker sends its first request, so a rung always has N requests however short
      for (boolean first = true; ; first = false) {
        long now = clock.nanoTime();
        // what ended before now is in the list; what this worker sends next ends after now
        gate.recordedUntil.set(index, now);
        if (!first && (now >= gate.holdEnd || now >= stopNanos)) {
          return;
        }
        if (stopped()) {
          return;
        }
        long n = seq.getAndIncrement();
        SynthesisRequest request = texts.request(n);
        Invocation inv = invoke(request);
        RequestEvent event =
            RequestEvent.of(
                RequestEvent.LoadModel.CLOSED_LOOP,
                runIndex,
                stepIndex,
                concurrency,
                n,
                index,
                now, // intended: the moment the worker was free to send
                texts.chars(n),
                inv);
        synchronized (events) {
          events.add(event);
        }
        try {
          listener.completed(event);
        } catch (RuntimeException e) {
          listenerFailure.compareAndSet(null, e);
        }
        if (inv.outcome() == Outcome.TRANSPORT_ERROR) {
          long pause = Math.min(TRANSPORT_ERROR_PAUSE_NANOS, gate.holdEnd - clock.nanoTime());
          if (pause > 0) {
            LockSupport.parkNanos(pause);
          }
        }
      }
    }

    private Invocation invoke(SynthesisRequest request) {
      long sent = clock.nanoTime();
      try {
        return connection.invoke(request);
      } catch (RuntimeException e) {
        // the SPI says invoke never throws; an invoker that does still costs a request
        return Outcomes.failed(
            Outcome.TRANSPORT_ERROR,
            0,
            sent,
            clock.nanoTime(),
            "the invoker threw " + e.getClass().getSimpleName() + ": " + e.getMessage());
      }
    }
  }
}
