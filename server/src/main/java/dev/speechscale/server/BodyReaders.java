package dev.speechscale.server;

import java.util.ArrayDeque;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.server.Request;
import org.jspecify.annotations.Nullable;

/**
 * The bodies being read before admission: at most {@code max} at once, the oldest evicted to make
 * room for a new one.
 *
 * <p>Why evict rather than refuse the newcomer: a body that did not come with its headers is
 * ordinary (Java's HttpClient, for one, writes headers and body separately, and the server often
 * reads the headers alone) and arrives within milliseconds, while a trickler's body never does.
 * With refusal, {@code max} trickling connections would refuse every such well-behaved request for
 * the whole read timeout: the gate attack moved to the readers. With eviction, the reader that has
 * waited longest — the likeliest trickler — is answered 408 and closed, and an attacker must open
 * {@code max} fresh connections within one well-behaved body's arrival time to crowd it out. Memory
 * stays bounded by {@code max} bodies and threads by {@code max} readers (plus the evicted ones
 * finishing their 408).
 */
final class BodyReaders {
  private final int max;
  private final ArrayDeque<Reader> reading = new ArrayDeque<>(); // oldest first
  private long evictedTotal;

  BodyReaders(int max) {
    this.max = max;
  }

  /** One body being read; {@link #close} gives its place back (once; evicted ones have none). */
  final class Reader implements AutoCloseable {
    private final Request request;
    private volatile boolean evicted;

    private Reader(Request request) {
      this.request = request;
    }

    /** True when this read was ended to make room for a newer one. */
    boolean evicted() {
      return evicted;
    }

    private void evict() {
      evicted = true;
      request.fail(
          new TimeoutException(
              "evicted: "
                  + max
                  + " bodies were being read (MAX_BODY_READERS) and this was the"
                  + " oldest"));
    }

    @Override
    public void close() {
      synchronized (BodyReaders.this) {
        reading.remove(this);
      }
    }
  }

  /**
   * Takes a place for reading {@code request}'s body; when all {@code max} are taken, the oldest
   * read is failed (its reader answers 408 and closes) and its place is this one's.
   */
  Reader start(Request request) {
    Reader reader = new Reader(request);
    @Nullable Reader oldest = null;
    synchronized (this) {
      if (reading.size() >= max) {
        oldest = reading.pollFirst();
        evictedTotal++;
      }
      reading.addLast(reader);
    }
    if (oldest != null) {
      oldest.evict(); // outside the lock: failing a request runs Jetty's listeners
    }
    return reader;
  }

  /** Bodies being read right now. */
  synchronized int reading() {
    return reading.size();
  }

  /** Reads ended to make room for newer ones since start. */
  synchronized long evictedTotal() {
    return evictedTotal;
  }
}
