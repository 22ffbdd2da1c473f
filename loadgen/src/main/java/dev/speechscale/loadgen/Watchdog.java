package dev.speechscale.loadgen;

import dev.speechscale.platform.NanoClock;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Enforces request deadlines by closing the socket of a request that overran, from one scanning
 * thread per invoker.
 *
 * <p>Why not {@code SO_TIMEOUT}: with a timeout set, every JDK socket read becomes a non-blocking
 * read, a {@code poll} and a second read — three system calls where a plain blocking read is one,
 * which measurably cut the generator's request rate on the 2-core benchmark machine. Arming a guard
 * is one volatile write; the scan runs every {@code timeout/20} (5–100 ms), so a deadline is
 * enforced that much late at most.
 */
final class Watchdog implements AutoCloseable {
  private static final long IDLE = Long.MAX_VALUE;
  private static final long FIRED = Long.MIN_VALUE;

  private final NanoClock clock;
  private final Set<Guard> guards = ConcurrentHashMap.newKeySet();
  private final Thread scanner;
  private volatile boolean closed;

  Watchdog(NanoClock clock, Duration timeout, String name) {
    this.clock = clock;
    long intervalMs = Math.max(5, Math.min(100, timeout.toMillis() / 20));
    this.scanner =
        Thread.ofPlatform()
            .daemon()
            .name("loadgen-watchdog-" + name)
            .start(() -> scan(Duration.ofMillis(intervalMs)));
  }

  private void scan(Duration interval) {
    while (!closed) {
      try {
        Thread.sleep(interval);
      } catch (InterruptedException e) {
        return; // closed
      }
      long now = clock.nanoTime();
      for (Guard g : guards) {
        g.fireIfOverdue(now);
      }
    }
  }

  /** A guard for one connection's socket; register it once, arm it per request. */
  Guard guard(Socket socket) {
    Guard g = new Guard(socket);
    guards.add(g);
    return g;
  }

  @Override
  public void close() {
    closed = true;
    scanner.interrupt();
  }

  /** One socket's deadline: {@link #IDLE}, a deadline, or {@link #FIRED}. */
  final class Guard {
    private final Socket socket;
    private final AtomicLong state = new AtomicLong(IDLE);

    private Guard(Socket socket) {
      this.socket = socket;
    }

    void arm(long deadlineNanos) {
      state.set(deadlineNanos);
    }

    /** Ends the guarded stretch; true when the watchdog closed the socket during it. */
    boolean disarm() {
      return state.getAndSet(IDLE) == FIRED;
    }

    boolean fired() {
      return state.get() == FIRED;
    }

    /** The socket is closed; stop watching it. */
    void release() {
      guards.remove(this);
    }

    private void fireIfOverdue(long now) {
      long d = state.get();
      if (d != IDLE && d != FIRED && d - now < 0 && state.compareAndSet(d, FIRED)) {
        Endpoints.closeQuietly(socket);
      }
    }
  }
}
