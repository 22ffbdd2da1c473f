package dev.speechscale.platform.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The in-service instances and least-outstanding-requests selection: a new request goes to the
 * instance holding the fewest; ties go round-robin, so equal instances share load evenly.
 */
final class Backends {
  private final List<Backend> inService = new ArrayList<>();
  private final List<Backend> draining = new ArrayList<>();
  private int next;

  /** Picks an instance and counts the request against it; empty when none is in service. */
  synchronized Optional<Backend> acquire() {
    return acquireOther(null);
  }

  /**
   * Like {@link #acquire()} but never {@code not}: where a request goes when {@code not} failed
   * before answering it. Empty when no other instance is in service.
   */
  synchronized Optional<Backend> acquireOther(@Nullable Backend not) {
    Backend best = null;
    int n = inService.size();
    for (int i = 0; i < n; i++) {
      Backend b = inService.get((next + i) % n);
      if (b != not && (best == null || b.inFlight() < best.inFlight())) {
        best = b;
      }
    }
    if (best == null) {
      return Optional.empty();
    }
    next = (inService.indexOf(best) + 1) % n;
    best.acquire();
    return Optional.of(best);
  }

  synchronized void add(Backend b) {
    inService.add(b);
  }

  /** Stops routing to {@code b}; its requests in flight continue. */
  synchronized void drain(Backend b) {
    if (inService.remove(b)) {
      draining.add(b);
    }
  }

  /** Forgets {@code b} entirely (stopped or died). */
  synchronized void remove(Backend b) {
    inService.remove(b);
    draining.remove(b);
    b.closeIdle();
  }

  synchronized List<Backend> inService() {
    return List.copyOf(inService);
  }

  /** Requests in flight on in-service instances. */
  synchronized int inFlightInService() {
    return inService.stream().mapToInt(Backend::inFlight).sum();
  }
}
