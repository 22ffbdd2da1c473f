package dev.speechscale.admission;

import java.util.concurrent.locks.Condition;
import org.jspecify.annotations.Nullable;

/**
 * One admitted request's claim on the gate. Closing it releases its in-flight unit, and its
 * execution slot if it still holds one, exactly once however often and from wherever {@link
 * #close()} is called.
 *
 * <p>Lifecycle: admitted → ({@link #awaitTurn} or {@link #tryTurn}) queued → executing → ({@link
 * #endExecution}) streaming → ({@link #close}) closed. Any step may be skipped by closing early.
 */
public final class Permit implements AutoCloseable {

  private enum State {
    ADMITTED,
    QUEUED,
    EXECUTING,
    STREAMING,
    CLOSED
  }

  private final AdmissionGate gate;
  private final long admittedAtNanos;
  private final Condition signal;
  private State state = State.ADMITTED;
  private boolean granted;
  private boolean shed;
  private boolean abandoned;
  private long startedAtNanos;
  private boolean firstByteSeen;
  long deadlineNanos;

  Permit(AdmissionGate gate, long admittedAtNanos) {
    this.gate = gate;
    this.admittedAtNanos = admittedAtNanos;
    this.signal = gate.lock().newCondition();
  }

  /** When the gate admitted this request, on the gate's ticker. */
  public long admittedAtNanos() {
    return admittedAtNanos;
  }

  /**
   * Waits in FIFO order for an execution slot, as long as the first audio byte can still arrive by
   * {@code deadlineNanos} (on the gate's ticker). Call once per permit.
   *
   * @throws IllegalStateException when called twice or after {@link #close()}
   */
  public Turn awaitTurn(long deadlineNanos) {
    var lock = gate.lock();
    lock.lock();
    try {
      long enqueuedAt = gate.now();
      Turn now = immediate("awaitTurn", enqueuedAt, deadlineNanos);
      if (now != null) {
        return now;
      }
      state = State.QUEUED;
      gate.enqueue(this);
      return waitInQueue(enqueuedAt);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The turn {@link #awaitTurn} would give without waiting — started when a slot is free and nobody
   * is queued (whatever the estimate says), shed when it would have to queue and its deadline is
   * already out of reach — or empty, with nothing changed, when the request would have to queue;
   * then call {@link #awaitTurn}, which may block. Lets a caller that must not block (an I/O
   * thread) start the common case itself.
   *
   * @throws IllegalStateException after a turn was taken or after {@link #close()}
   */
  public java.util.Optional<Turn> tryTurn(long deadlineNanos) {
    var lock = gate.lock();
    lock.lock();
    try {
      return java.util.Optional.ofNullable(immediate("tryTurn", gate.now(), deadlineNanos));
    } finally {
      lock.unlock();
    }
  }

  /** With the lock held: a turn that needs no waiting, or null when the request must queue. */
  private @Nullable Turn immediate(String caller, long now, long deadlineNanos) {
    if (state != State.ADMITTED) {
      throw new IllegalStateException(
          caller + " called in state " + state + "; take one turn per permit, before close()");
    }
    this.deadlineNanos = deadlineNanos;
    if (abandoned) {
      state = State.STREAMING;
      return new Turn.Cancelled(AdmissionGate.nanos(0));
    }
    // A free slot always starts: shedding it would idle the engine, and a started request is the
    // only thing that teaches the first-byte estimate. Shedding on the estimate alone once locked
    // the gate for good when one slow request lifted the estimate above MAX_REQUEST_AGE_S.
    if (gate.tryStartImmediately()) {
      return started(now);
    }
    if (gate.cannotMeet(now, deadlineNanos)) {
      gate.countShed();
      state = State.STREAMING;
      return new Turn.Shed(
          AdmissionGate.nanos(0), AdmissionGate.nanos(gate.lateByNanos(now, deadlineNanos)));
    }
    return null;
  }

  private Turn waitInQueue(long enqueuedAt) {
    while (!granted && !shed && !abandoned && state == State.QUEUED) {
      long remaining = gate.latestStartNanos(deadlineNanos) - gate.now();
      if (remaining <= 0) {
        gate.dequeue(this);
        gate.countShed();
        state = State.STREAMING;
        long now = gate.now();
        return new Turn.Shed(
            AdmissionGate.nanos(now - enqueuedAt),
            AdmissionGate.nanos(gate.lateByNanos(now, deadlineNanos)));
      }
      try {
        signal.awaitNanos(remaining);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        if (granted) {
          gate.releaseSlot();
        } else {
          gate.dequeue(this);
        }
        state = State.STREAMING;
        return new Turn.Cancelled(AdmissionGate.nanos(gate.now() - enqueuedAt));
      }
    }
    long now = gate.now();
    if (granted && state == State.QUEUED) {
      return started(enqueuedAt);
    }
    if (abandoned && state == State.QUEUED) {
      state = State.STREAMING;
      return new Turn.Cancelled(AdmissionGate.nanos(now - enqueuedAt));
    }
    if (shed) {
      state = State.STREAMING;
      return new Turn.Shed(
          AdmissionGate.nanos(now - enqueuedAt),
          AdmissionGate.nanos(gate.lateByNanos(now, deadlineNanos)));
    }
    return new Turn.Cancelled(AdmissionGate.nanos(now - enqueuedAt));
  }

  private Turn started(long enqueuedAt) {
    state = State.EXECUTING;
    startedAtNanos = gate.now();
    return new Turn.Started(AdmissionGate.nanos(startedAtNanos - enqueuedAt));
  }

  /**
   * Reports that the first audio byte of this request was produced, feeding the gate's
   * start-to-first-byte estimate. Only the first call counts.
   */
  public void firstByte() {
    var lock = gate.lock();
    lock.lock();
    try {
      if (!firstByteSeen && (state == State.EXECUTING || state == State.STREAMING)) {
        firstByteSeen = true;
        gate.observeFirstByte(gate.now() - startedAtNanos);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Gives the execution slot back when synthesis ended but the response is still being written; the
   * request stays in flight until {@link #close()}. Idempotent.
   */
  public void endExecution() {
    var lock = gate.lock();
    lock.lock();
    try {
      if (state == State.EXECUTING) {
        state = State.STREAMING;
        gate.releaseSlot();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Releases everything this permit holds, on the first call only. */
  @Override
  public void close() {
    var lock = gate.lock();
    lock.lock();
    try {
      switch (state) {
        case CLOSED -> {
          return;
        }
        case QUEUED -> {
          if (granted) {
            gate.releaseSlot(); // granted but the waiter has not woken yet
          } else {
            gate.dequeue(this);
          }
          signal.signalAll();
        }
        case EXECUTING -> gate.releaseSlot();
        case ADMITTED, STREAMING -> {}
      }
      state = State.CLOSED;
      gate.releaseInFlight();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The client left while this request waits in the queue: gives its place up at once, so the
   * waiter's {@link #awaitTurn} returns {@link Turn.Cancelled} and the owner closes the permit as
   * usual. Before the turn was asked for, the later turn is {@link Turn.Cancelled}. Does nothing in
   * any other state — a request that already holds a slot is stopped by its owner, never from
   * outside, so a slot is never freed twice. Safe from any thread (a transport's close callback).
   *
   * @return true when the request was waiting and gave its place up
   */
  public boolean abandonWhileQueued() {
    var lock = gate.lock();
    lock.lock();
    try {
      if (state == State.ADMITTED) {
        abandoned = true; // left before the wait began: the turn, when asked, is Cancelled
        return true;
      }
      if (state != State.QUEUED || granted || shed || abandoned) {
        return false;
      }
      abandoned = true;
      gate.dequeue(this);
      signal.signalAll();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** True once {@link #close()} ran. */
  public boolean isClosed() {
    var lock = gate.lock();
    lock.lock();
    try {
      return state == State.CLOSED;
    } finally {
      lock.unlock();
    }
  }

  // ---- called by the gate with the lock held ----

  void onGranted() {
    granted = true;
    signal.signalAll();
  }

  void onShed() {
    shed = true;
    signal.signalAll();
  }
}
