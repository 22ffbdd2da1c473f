package dev.speechscale.platform;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * Control-plane calls counted per wall-clock minute (attempts, throttled ones included), so a run
 * can show how close it came to the service's limits. Thread-safe.
 */
public final class CallCounter {
  private final TreeMap<Long, long[]> byMinute = new TreeMap<>();

  /** Counts one attempt at {@code at}; {@code throttled} when the service refused it. */
  public synchronized void count(Instant at, boolean throttled) {
    long[] c = byMinute.computeIfAbsent(Math.floorDiv(at.getEpochSecond(), 60), k -> new long[2]);
    c[0]++;
    if (throttled) {
      c[1]++;
    }
  }

  /**
   * Calls in each minute at or after {@code since}, keyed by the minute's start.
   *
   * @param since the first minute counted is the one containing it
   */
  public synchronized Map<Instant, Long> perMinute(Instant since) {
    Map<Instant, Long> out = new TreeMap<>();
    byMinute
        .tailMap(Math.floorDiv(since.getEpochSecond(), 60), true)
        .forEach((m, c) -> out.put(Instant.ofEpochSecond(m * 60), c[0]));
    return out;
  }

  /** The busiest minute's calls at or after {@code since}; 0 when none. */
  public synchronized long peakPerMinute(Instant since) {
    return perMinute(since).values().stream().mapToLong(Long::longValue).max().orElse(0);
  }

  /** Every attempt and every throttled one at or after {@code since}: {total, throttled}. */
  public synchronized long[] totals(Instant since) {
    long[] t = new long[2];
    byMinute
        .tailMap(Math.floorDiv(since.getEpochSecond(), 60), true)
        .values()
        .forEach(c -> {
          t[0] += c[0];
          t[1] += c[1];
        });
    return t;
  }
}
