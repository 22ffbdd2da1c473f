package dev.speechscale.server;

import java.io.PrintStream;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Counts load shedding in the container's log stream, where a platform can turn it into a metric
 * without parsing request logs: once a second, if any request was refused as {@code
 * queue_saturated} in that second, one JSON line {@code {"event":"queue_saturated","count":N}}. One
 * line a second, not one per refusal, so a refusal storm (thousands a second) costs nothing; a
 * CloudWatch metric filter sums {@code $.count} to separate deliberate 503s from real 5xx.
 */
final class RefusalLog implements AutoCloseable {
  private final Thread thread;

  RefusalLog(LongSupplier saturatedTotal, PrintStream out, Duration every) {
    long start = saturatedTotal.getAsLong();
    this.thread =
        Thread.ofPlatform()
            .daemon()
            .name("refusal-log")
            .start(() -> {
              long last = start;
              while (!Thread.currentThread().isInterrupted()) {
                try {
                  Thread.sleep(every);
                } catch (InterruptedException e) {
                  return;
                }
                long now = saturatedTotal.getAsLong();
                if (now > last) {
                  synchronized (out) {
                    out.println(line(now - last));
                    out.flush();
                  }
                }
                last = now;
              }
            });
  }

  static String line(long count) {
    return "{\"event\":\"queue_saturated\",\"count\":" + count + "}";
  }

  @Override
  public void close() {
    thread.interrupt();
  }
}
