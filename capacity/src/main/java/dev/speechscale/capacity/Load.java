package dev.speechscale.capacity;

import java.util.Locale;

/** A stated load: a request rate, or a count of concurrent long-lived streams. */
public sealed interface Load {

  /** The amount, in the load's own unit. */
  double amount();

  /** A short human form: {@code 5000 req/s}, {@code 120 streams}. */
  String describe();

  /** Requests per second (each request opens and closes its own stream). */
  record RequestRate(double perSecond) implements Load {
    public RequestRate {
      if (!(perSecond >= 0) || Double.isInfinite(perSecond)) {
        throw new CapacityException(
            "request rate (" + perSecond + " req/s) must be finite and >= 0");
      }
    }

    @Override
    public double amount() {
      return perSecond;
    }

    @Override
    public String describe() {
      return Numbers.compact(perSecond) + " req/s";
    }
  }

  /** Concurrent streams (bidirectional sessions), already a concurrency. */
  record Streams(double count) implements Load {
    public Streams {
      if (!(count >= 0) || Double.isInfinite(count)) {
        throw new CapacityException("stream count (" + count + ") must be finite and >= 0");
      }
    }

    @Override
    public double amount() {
      return count;
    }

    @Override
    public String describe() {
      return Numbers.compact(count) + " streams";
    }
  }

  /** Formatting shared by the planner's sentences; Locale.ROOT everywhere. */
  final class Numbers {
    private Numbers() {}

    static String compact(double v) {
      if (v == Math.rint(v) && Math.abs(v) < 1e15) {
        return String.format(Locale.ROOT, "%d", (long) v);
      }
      return String.format(Locale.ROOT, "%.2f", v);
    }
  }
}
