package dev.speechscale.chain;

import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/** Reads the instance counts every period until stopped; one owner, the sampling thread. */
final class CapacitySampler implements Runnable {
  private final Platform platform;
  private final String endpoint;
  private final NanoClock nanos;
  private final long t0;
  private final Duration every;
  private final ConcurrentLinkedQueue<LiveReplay.CapacitySample> samples =
      new ConcurrentLinkedQueue<>();
  private final AtomicLong failures = new AtomicLong();
  private volatile String lastFailure = "";
  private volatile boolean stopped;

  CapacitySampler(Platform platform, String endpoint, NanoClock nanos, long t0, Duration every) {
    this.platform = platform;
    this.endpoint = endpoint;
    this.nanos = nanos;
    this.t0 = t0;
    this.every = every;
  }

  @Override
  public void run() {
    long next = t0;
    while (!stopped) {
      long at = nanos.nanoTime();
      try {
        EndpointDescription d = platform.describe(endpoint);
        samples.add(
            new LiveReplay.CapacitySample(
                (at - t0) / 1e9, d.desiredInstances(), d.currentInstances()));
      } catch (PlatformException e) {
        failures.incrementAndGet();
        String message = e.getMessage();
        lastFailure = message == null ? e.toString() : message;
      }
      next += every.toNanos();
      long wait = next - nanos.nanoTime();
      if (wait > 0) {
        try {
          Thread.sleep(Duration.ofNanos(wait));
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  void stop() {
    stopped = true;
  }

  long failures() {
    return failures.get();
  }

  String lastFailure() {
    return lastFailure;
  }

  List<LiveReplay.CapacitySample> samples() {
    return List.copyOf(samples);
  }
}
