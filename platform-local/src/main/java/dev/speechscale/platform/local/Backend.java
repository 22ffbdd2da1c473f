package dev.speechscale.platform.local;

import java.io.IOException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One instance as the router sees it: where it listens and how many requests it holds now (queued,
 * executing or still streaming; an open bidirectional session counts as one).
 */
final class Backend {
  private final String instanceId;
  private final String host;
  private final int port;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final ConcurrentLinkedDeque<UpstreamConnection> idle = new ConcurrentLinkedDeque<>();

  private final java.time.Duration readTimeout;

  Backend(String instanceId, String host, int port) {
    this(instanceId, host, port, UpstreamConnection.READ_TIMEOUT);
  }

  /** An instance whose responses may pause at most {@code readTimeout} between bytes. */
  Backend(String instanceId, String host, int port, java.time.Duration readTimeout) {
    this.instanceId = instanceId;
    this.host = host;
    this.port = port;
    this.readTimeout = readTimeout;
  }

  String instanceId() {
    return instanceId;
  }

  String host() {
    return host;
  }

  int port() {
    return port;
  }

  int inFlight() {
    return inFlight.get();
  }

  void acquire() {
    inFlight.incrementAndGet();
  }

  void release() {
    inFlight.decrementAndGet();
  }

  /** An idle kept-alive connection, or {@code null} when there is none. */
  UpstreamConnection pooled() {
    return idle.pollFirst();
  }

  UpstreamConnection open() throws IOException {
    return new UpstreamConnection(host, port, readTimeout);
  }

  /** Keeps {@code c} for the next request when it can be reused, else closes it. */
  void giveBack(UpstreamConnection c) {
    if (c.reusable()) {
      idle.addFirst(c);
    } else {
      c.close();
    }
  }

  /** Closes every idle connection (the instance is gone or going). */
  void closeIdle() {
    for (UpstreamConnection c; (c = idle.pollFirst()) != null; ) {
      c.close();
    }
  }

  @Override
  public String toString() {
    return instanceId + "@" + host + ":" + port;
  }
}
