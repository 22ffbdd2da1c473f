package dev.speechscale.platform.local;

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

  Backend(String instanceId, String host, int port) {
    this.instanceId = instanceId;
    this.host = host;
    this.port = port;
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

  String baseUrl() {
    return "http://" + host + ":" + port;
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

  @Override
  public String toString() {
    return instanceId + "@" + host + ":" + port;
  }
}
