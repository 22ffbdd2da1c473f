package dev.speechscale.loadgen;

import dev.speechscale.artifacts.Histograms;
import dev.speechscale.capacity.Percentiles;
import dev.speechscale.capacity.SplitMix64;
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.DoubleSupplier;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * Sends requests on an arrival schedule regardless of how the server keeps up — the load model for
 * surge checks. Each arrival has an intended send time; a request is started on its own virtual
 * thread at that time and timed from it, so queueing anywhere (server, network, or this client
 * falling behind) shows in latency instead of quietly stretching the schedule.
 *
 * <p>The client is bounded by {@link OpenLoopSpec#maxInFlight()} (a semaphore — virtual threads
 * bound nothing): an arrival that finds the bound reached is <em>dropped and counted</em>, and
 * sends later than {@link OpenLoopSpec#lateThreshold()} are counted as late, so a client that could
 * not keep the schedule says so. Connections are pooled (at most {@code maxInFlight}), each used by
 * one request at a time.
 */
public final class OpenLoopDriver implements AutoCloseable {
  private final Invoker invoker;
  private final TextPool texts;
  private final NanoClock clock;
  private final RequestListener listener;
  private final ConcurrentLinkedDeque<Slot> idle = new ConcurrentLinkedDeque<>();
  private final List<Slot> all = new ArrayList<>();
  private final AtomicInteger slots = new AtomicInteger();
  private final AtomicReference<RuntimeException> listenerFailure = new AtomicReference<>();
  private volatile boolean stopped;
  // the schedule's read-ahead, owned by the thread in run()
  private double next;
  private boolean taken = true;

  public OpenLoopDriver(
      Invoker invoker, TextPool texts, NanoClock clock, RequestListener listener) {
    this.invoker = invoker;
    this.texts = texts;
    this.clock = clock;
    this.listener = listener;
  }

  /** A pooled connection with a stable index (reported as the event's worker). */
  private record Slot(int index, Invoker.Connection connection) {}

  /**
   * Runs the schedule and waits for every request sent to end.
   *
   * @throws LoadgenException when the request listener failed (after every request ended)
   */
  public OpenLoopResult run(OpenLoopSpec spec) {
    return drive(spec, null, Shard.WHOLE);
  }

  /**
   * Runs shard {@code shard} of the schedule: draws every arrival of {@code spec} from its seed,
   * sends only the shard's ({@link Shard#owns}) and waits for them to end. Counts, drops and events
   * are the shard's; arrival {@code seq} keeps its place in the whole schedule, and its intended
   * time the same offset from the start as in a single process.
   *
   * @throws LoadgenException when the request listener failed (after every request ended)
   */
  public OpenLoopResult run(OpenLoopSpec spec, Shard shard) {
    return drive(spec, null, java.util.Objects.requireNonNull(shard, "shard"));
  }

  /**
   * Sends one request at each time {@code schedule} gives instead of drawing arrivals: seconds from
   * the start, non-decreasing, {@code NaN} after the last. A replay uses it to send exactly the
   * arrivals a simulation of the same trace and seed drew. The phases of {@code spec} only group
   * the requests (each belongs to the phase holding its time; none is sent after the last phase
   * ends), and {@code spec.arrivals()} is not used. Waits for every request sent to end.
   *
   * @throws LoadgenException when the schedule goes back in time or the request listener failed
   */
  public OpenLoopResult run(OpenLoopSpec spec, DoubleSupplier schedule) {
    return run(spec, schedule, Shard.WHOLE);
  }

  /**
   * Shard {@code shard} of the given times ({@link #run(OpenLoopSpec, DoubleSupplier)}): every time
   * is drawn, and only the shard's arrivals ({@link Shard#owns}) are sent, each keeping its place
   * {@code seq} in the whole schedule.
   *
   * @throws LoadgenException when the schedule goes back in time or the request listener failed
   */
  public OpenLoopResult run(OpenLoopSpec spec, DoubleSupplier schedule, Shard shard) {
    return drive(
        spec,
        java.util.Objects.requireNonNull(schedule, "schedule"),
        java.util.Objects.requireNonNull(shard, "shard"));
  }

  private OpenLoopResult drive(OpenLoopSpec spec, @Nullable DoubleSupplier schedule, Shard shard) {
    Semaphore permits = new Semaphore(spec.maxInFlight());
    ConcurrentLinkedQueue<RequestEvent> events = new ConcurrentLinkedQueue<>();
    int phases = spec.phases().size();
    long[] intended = new long[phases];
    long[] dropped = new long[phases];
    SplitMix64 rng = new SplitMix64(spec.seed());
    long seq = 0;
    long start = clock.nanoTime();
    listener.scheduleStarted(start);
    long phaseStart = start;
    double lastScheduledS = 0;
    taken = true;
    schedule:
    for (int p = 0; p < phases; p++) {
      OpenLoopSpec.Phase phase = spec.phases().get(p);
      long phaseEnd = phaseStart + phase.duration().toNanos();
      double gapNanos = phase.ratePerSecond() > 0 ? 1e9 / phase.ratePerSecond() : Double.NaN;
      // arrival times are offsets from the start, computed alike in every process (a double
      // holding an absolute nanoTime would round differently per process and per shard)
      double poissonOffset = phaseStart - start;
      for (long k = 0; schedule != null || !Double.isNaN(gapNanos); k++) {
        long at;
        if (schedule != null) {
          double s = pending(schedule);
          if (Double.isNaN(s)) {
            break;
          }
          if (s < lastScheduledS) {
            throw new LoadgenException(
                "the arrival schedule went back in time ("
                    + s
                    + " s after "
                    + lastScheduledS
                    + " s); arrival times must not decrease");
          }
          lastScheduledS = s;
          at = start + Math.round(s * 1e9);
          if (at >= phaseEnd) {
            break; // it belongs to a later phase: kept for the next one
          }
          taken = true;
        } else if (spec.arrivals() == OpenLoopSpec.Arrivals.POISSON) {
          poissonOffset += -Math.log1p(-rng.nextDouble()) * gapNanos;
          at = start + (long) poissonOffset;
        } else {
          at = phaseStart + Math.round(k * gapNanos); // no accumulated rounding error
        }
        if (at >= phaseEnd) {
          break;
        }
        long n = seq++;
        if (!shard.owns(n)) {
          continue; // another shard's arrival
        }
        if (!waitUntil(at)) {
          break schedule;
        }
        intended[p]++;
        if (permits.tryAcquire()) {
          int phaseIndex = p;
          Thread.ofVirtual()
              .name("loadgen-open-" + n)
              .start(() -> send(phaseIndex, spec.maxInFlight(), n, at, permits, events));
        } else {
          dropped[p]++;
          try {
            listener.dropped(p, n, at);
          } catch (RuntimeException e) {
            listenerFailure.compareAndSet(null, e);
          }
        }
      }
      phaseStart = phaseEnd;
      if (!waitUntil(phaseEnd)) {
        break;
      }
    }
    permits.acquireUninterruptibly(spec.maxInFlight()); // every request sent has ended
    permits.release(spec.maxInFlight());
    listener.flush();
    RuntimeException failure = listenerFailure.getAndSet(null);
    if (failure != null) {
      throw new LoadgenException(
          "the request listener failed during the open-loop run: " + failure.getMessage(), failure);
    }
    List<RequestEvent> sorted = new ArrayList<>(events);
    sorted.sort(Comparator.comparingLong(RequestEvent::intendedNanos));
    List<OpenLoopResult.PhaseResult> results = new ArrayList<>();
    for (int p = 0; p < phases; p++) {
      results.add(summarize(spec, p, intended[p], dropped[p], sorted));
    }
    return new OpenLoopResult(results, sorted, stopped);
  }

  /** The scheduled time not yet sent: one read ahead survives a phase change. */
  private double pending(DoubleSupplier schedule) {
    if (taken) {
      next = schedule.getAsDouble();
      taken = false;
    }
    return next;
  }

  /** Parks until {@code at}; false when stopped first. */
  private boolean waitUntil(long at) {
    while (!stopped) {
      long wait = at - clock.nanoTime();
      if (wait <= 0) {
        return true;
      }
      LockSupport.parkNanos(wait);
      if (Thread.interrupted()) {
        stop();
        Thread.currentThread().interrupt();
      }
    }
    return false;
  }

  private void send(
      int phase,
      int bound,
      long seq,
      long intendedNanos,
      Semaphore permits,
      ConcurrentLinkedQueue<RequestEvent> events) {
    Slot slot = idle.pollFirst();
    if (slot == null) {
      slot = new Slot(slots.getAndIncrement(), invoker.connect());
      synchronized (all) {
        all.add(slot);
      }
    }
    try {
      Invocation inv;
      try {
        inv = slot.connection().invoke(texts.request(seq));
      } catch (RuntimeException e) {
        long now = clock.nanoTime();
        inv =
            Outcomes.failed(
                Outcome.TRANSPORT_ERROR,
                0,
                now,
                now,
                "the invoker threw " + e.getClass().getSimpleName() + ": " + e.getMessage());
      }
      RequestEvent event =
          RequestEvent.of(
              RequestEvent.LoadModel.OPEN_LOOP,
              0,
              phase,
              bound,
              seq,
              slot.index(),
              intendedNanos,
              texts.chars(seq),
              inv);
      events.add(event);
      try {
        listener.completed(event);
      } catch (RuntimeException e) {
        listenerFailure.compareAndSet(null, e);
      }
    } finally {
      idle.addFirst(slot);
      permits.release();
    }
  }

  private static OpenLoopResult.PhaseResult summarize(
      OpenLoopSpec spec, int p, long intended, long dropped, List<RequestEvent> events) {
    OpenLoopSpec.Phase phase = spec.phases().get(p);
    Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);
    Histogram ttfab = Histograms.newMicros();
    Histogram latency = Histograms.newMicros();
    Histogram lag = Histograms.newMicros();
    List<Long> ttfabs = new ArrayList<>();
    List<Long> latencies = new ArrayList<>();
    long sent = 0;
    long late = 0;
    long maxLag = 0;
    long lateNanos = spec.lateThreshold().toNanos();
    for (RequestEvent e : events) {
      if (e.stepIndex() != p) {
        continue;
      }
      sent++;
      outcomes.merge(e.outcome(), 1L, Long::sum);
      long sendLag = Math.max(0, e.sendLagNanos());
      Histograms.recordNanos(lag, sendLag);
      maxLag = Math.max(maxLag, sendLag);
      if (sendLag > lateNanos) {
        late++;
      }
      if (e.ok()) {
        ttfabs.add(Math.max(0, e.ttfabNanos()));
        latencies.add(e.latencyNanos());
        Histograms.recordNanos(ttfab, Math.max(0, e.ttfabNanos()));
        Histograms.recordNanos(latency, e.latencyNanos());
      }
    }
    long[] t = ttfabs.stream().mapToLong(Long::longValue).sorted().toArray();
    long[] l = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
    long ok = outcomes.getOrDefault(Outcome.OK, 0L);
    return new OpenLoopResult.PhaseResult(
        p,
        phase.name(),
        phase.ratePerSecond(),
        phase.duration(),
        intended,
        sent,
        dropped,
        late,
        maxLag / 1e6,
        ok,
        outcomes.getOrDefault(Outcome.REJECTED, 0L),
        outcomes,
        ok / (phase.duration().toNanos() / 1e9),
        ms(t, 50),
        ms(t, 95),
        ms(t, 99),
        ms(l, 50),
        ms(l, 95),
        ms(l, 99),
        ttfab,
        latency,
        lag);
  }

  private static @Nullable Double ms(long[] sorted, double p) {
    return sorted.length == 0 ? null : Percentiles.linear(sorted, p) / 1e6;
  }

  /** Ends the schedule now; requests in flight finish. Safe from any thread. */
  public void stop() {
    stopped = true;
  }

  /** Closes the pooled connections (not the invoker). */
  @Override
  public void close() {
    synchronized (all) {
      for (Slot s : all) {
        s.connection().close();
      }
      all.clear();
    }
    idle.clear();
  }
}
