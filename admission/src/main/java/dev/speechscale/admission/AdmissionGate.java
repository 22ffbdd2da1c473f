package dev.speechscale.admission;

import dev.speechscale.platform.NanoClock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Bounds requests in flight and hands out execution slots in FIFO order; see the package
 * documentation for the contract.
 *
 * <p>All state is guarded by one lock; the counters are also published through volatile fields so
 * {@link #inFlight()} is a single read, cheap enough to sample every second or on every scrape.
 */
// Every write happens under the lock; volatile only lets readers skip it.
@SuppressWarnings("NonAtomicVolatileUpdate")
public final class AdmissionGate {

  /** Weight of a new observation in the start-to-first-byte moving average. */
  private static final double EWMA_ALPHA = 0.2;

  private final GateConfig config;
  private final NanoClock ticker;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition idle = lock.newCondition();
  private final ArrayDeque<Permit> queue = new ArrayDeque<>();

  private volatile int inFlight;
  private volatile int executing;
  private volatile int queued;
  private volatile long admittedTotal;
  private volatile long saturatedTotal;
  private volatile long shedTotal;
  private volatile long firstByteEstimateNanos;
  private boolean admitting = true;

  public AdmissionGate(GateConfig config, NanoClock ticker) {
    if (config == null || ticker == null) {
      throw new IllegalArgumentException("config and ticker must not be null");
    }
    this.config = config;
    this.ticker = ticker;
    this.firstByteEstimateNanos = config.initialFirstByteEstimate().toNanos();
  }

  public GateConfig config() {
    return config;
  }

  /** Admits a request or refuses it at once; never blocks on the queue. */
  public Admission admit() {
    lock.lock();
    try {
      if (!admitting) {
        return new Admission.ShuttingDown(inFlight);
      }
      if (!config.unbounded() && inFlight >= config.maxInFlight()) {
        saturatedTotal++;
        return new Admission.Saturated(inFlight, config.maxInFlight());
      }
      inFlight++;
      admittedTotal++;
      return new Admission.Admitted(new Permit(this, ticker.nanoTime()));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Refuses now, as {@link #admit()} would, when the gate is at its bound or shutting down; else
   * admits nothing and returns empty. For a request whose body is still on its way: it is answered
   * at once when it could not be admitted anyway, and otherwise asks {@link #admit()} only once its
   * whole body is here, holding no place while it waits.
   */
  public java.util.Optional<Admission.Refusal> refuseIfFull() {
    lock.lock();
    try {
      if (!admitting) {
        return java.util.Optional.of(new Admission.ShuttingDown(inFlight));
      }
      if (!config.unbounded() && inFlight >= config.maxInFlight()) {
        saturatedTotal++;
        return java.util.Optional.of(new Admission.Saturated(inFlight, config.maxInFlight()));
      }
      return java.util.Optional.empty();
    } finally {
      lock.unlock();
    }
  }

  /** Requests currently in flight (queued + executing + streaming): one volatile read. */
  public int inFlight() {
    return inFlight;
  }

  public GateSnapshot snapshot() {
    lock.lock();
    try {
      return new GateSnapshot(
          inFlight,
          queued,
          executing,
          config.maxInFlight(),
          config.executionSlots(),
          admittedTotal,
          saturatedTotal,
          shedTotal,
          firstByteEstimateNanos);
    } finally {
      lock.unlock();
    }
  }

  /** Stops admitting: every later {@link #admit()} answers {@link Admission.ShuttingDown}. */
  public void stopAdmitting() {
    lock.lock();
    try {
      admitting = false;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits (in real time, at most {@code timeout}) until no permit is open.
   *
   * @return true when the gate drained, false when the timeout passed first
   */
  public boolean awaitIdle(Duration timeout) throws InterruptedException {
    long remaining = timeout.toNanos();
    lock.lock();
    try {
      while (inFlight > 0) {
        if (remaining <= 0) {
          return false;
        }
        remaining = idle.awaitNanos(remaining);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Sheds every queued request whose deadline can no longer be met at the ticker's current time.
   * Waiters also shed themselves when their latest start passes; this sweep exists for callers (and
   * tests) that advance an injected clock.
   *
   * @return how many were shed
   */
  public int shedExpired() {
    lock.lock();
    try {
      long now = ticker.nanoTime();
      int shed = 0;
      for (var it = queue.iterator(); it.hasNext(); ) {
        Permit waiter = it.next();
        if (cannotMeet(now, waiter.deadlineNanos)) {
          it.remove();
          markShed(waiter);
          shed++;
        }
      }
      return shed;
    } finally {
      lock.unlock();
    }
  }

  // ---- called by Permit, always with the lock held by the permit's own methods ----

  ReentrantLock lock() {
    return lock;
  }

  long now() {
    return ticker.nanoTime();
  }

  /** Start at once when no one queues ahead and a slot is free. */
  boolean tryStartImmediately() {
    if (queue.isEmpty() && executing < config.executionSlots()) {
      executing++;
      return true;
    }
    return false;
  }

  boolean cannotMeet(long nowNanos, long deadlineNanos) {
    return nowNanos + firstByteEstimateNanos > deadlineNanos;
  }

  long lateByNanos(long nowNanos, long deadlineNanos) {
    return Math.max(0, nowNanos + firstByteEstimateNanos - deadlineNanos);
  }

  long latestStartNanos(long deadlineNanos) {
    return deadlineNanos - firstByteEstimateNanos;
  }

  void enqueue(Permit waiter) {
    queue.addLast(waiter);
    queued++;
  }

  /** Removes a waiter that gave up (timeout, interrupt, close) on its own. */
  void dequeue(Permit waiter) {
    if (queue.remove(waiter)) {
      queued--;
    }
  }

  void countShed() {
    shedTotal++;
  }

  private void markShed(Permit waiter) {
    queued--;
    shedTotal++;
    waiter.onShed();
  }

  /** Frees one execution slot and passes it to the head of the queue (FIFO). */
  void releaseSlot() {
    executing--;
    dispatch();
  }

  private void dispatch() {
    long now = ticker.nanoTime();
    while (executing < config.executionSlots() && !queue.isEmpty()) {
      Permit head = queue.pollFirst();
      if (cannotMeet(now, head.deadlineNanos)) {
        markShed(head);
        continue;
      }
      queued--;
      executing++;
      head.onGranted();
    }
  }

  /** Releases the in-flight unit of a closing permit. */
  void releaseInFlight() {
    inFlight--;
    if (inFlight == 0) {
      idle.signalAll();
    }
  }

  void observeFirstByte(long startToFirstByteNanos) {
    if (startToFirstByteNanos < 0) {
      return;
    }
    long previous = firstByteEstimateNanos;
    firstByteEstimateNanos =
        previous == 0
            ? startToFirstByteNanos
            : (long) (previous + EWMA_ALPHA * (startToFirstByteNanos - previous));
  }

  static Duration nanos(long nanos) {
    return Duration.ofNanos(Math.max(0, nanos));
  }

  @Override
  public String toString() {
    GateSnapshot s = snapshot();
    return "AdmissionGate[inFlight="
        + s.inFlight()
        + ", queued="
        + s.queued()
        + ", executing="
        + s.executing()
        + ", max="
        + s.maxInFlight()
        + ", firstByteEstimateMs="
        + TimeUnit.NANOSECONDS.toMillis(s.firstByteEstimateNanos())
        + "]";
  }
}
