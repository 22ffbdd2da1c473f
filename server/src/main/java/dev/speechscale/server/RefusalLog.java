package dev.speechscale.server;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * Counts deliberate refusals in the container's log stream, where a platform can turn them into
 * metrics without parsing request logs: once a second, for each kind that had any in that second,
 * one JSON line {@code {"event":KIND,"count":N}}. One line a second per kind, not one per refusal,
 * so a refusal storm (thousands a second) costs nothing. Two kinds:
 *
 * <ul>
 *   <li>{@value #QUEUE_SATURATED}: requests refused above {@code queue_max_depth}, on HTTP and
 *       WebSocket alike — load shedding, for the shedding alarm;
 *   <li>{@value #DELIBERATE_503}: every HTTP {@code /invocations} answer that was a deliberate 503
 *       ({@code queue_saturated}, {@code deadline_shed}, {@code shutting_down}, {@code not_ready}),
 *       exactly the 503s SageMaker counts in {@code Invocation5XXErrors} that are not server
 *       errors, so the real-error alarm subtracts these and nothing else (a WebSocket refusal is
 *       never an HTTP 5xx).
 * </ul>
 */
final class RefusalLog implements AutoCloseable {
  static final String QUEUE_SATURATED = "queue_saturated";
  static final String DELIBERATE_503 = "deliberate_503";

  private final Thread thread;

  /** One kind: {@value #QUEUE_SATURATED} (kept for callers that count only load shedding). */
  RefusalLog(LongSupplier saturatedTotal, PrintStream out, Duration every) {
    this(Map.of(QUEUE_SATURATED, saturatedTotal), out, every);
  }

  /**
   * @param totals per event kind, a running total (a second's lines are printed in kind order)
   */
  RefusalLog(Map<String, LongSupplier> totals, PrintStream out, Duration every) {
    List<String> kinds = new ArrayList<>();
    List<LongSupplier> counts = new ArrayList<>();
    new TreeMap<>(totals)
        .forEach((kind, total) -> {
          kinds.add(kind);
          counts.add(total);
        });
    long[] last = new long[kinds.size()];
    for (int k = 0; k < last.length; k++) {
      last[k] = counts.get(k).getAsLong();
    }
    this.thread =
        Thread.ofPlatform()
            .daemon()
            .name("refusal-log")
            .start(() -> {
              while (!Thread.currentThread().isInterrupted()) {
                try {
                  Thread.sleep(every);
                } catch (InterruptedException e) {
                  return;
                }
                for (int k = 0; k < last.length; k++) {
                  long now = counts.get(k).getAsLong();
                  if (now > last[k]) {
                    synchronized (out) {
                      out.println(line(kinds.get(k), now - last[k]));
                      out.flush();
                    }
                  }
                  last[k] = now;
                }
              }
            });
  }

  static String line(long count) {
    return line(QUEUE_SATURATED, count);
  }

  static String line(String kind, long count) {
    return "{\"event\":\"" + kind + "\",\"count\":" + count + "}";
  }

  @Override
  public void close() {
    thread.interrupt();
  }
}
