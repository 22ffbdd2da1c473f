package dev.speechscale.server;

import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/** A Prometheus histogram with fixed buckets in seconds; lock-free to record. */
final class Histogram {
  static final double[] LATENCY_BUCKETS_S = {
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60
  };

  private final String name;
  private final String help;
  private final double[] bounds;
  private final LongAdder[] counts;
  private final LongAdder count = new LongAdder();
  private final LongAdder sumNanos = new LongAdder();

  Histogram(String name, String help, double[] boundsSeconds) {
    this.name = name;
    this.help = help;
    this.bounds = boundsSeconds.clone();
    this.counts = new LongAdder[bounds.length];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = new LongAdder();
    }
  }

  void recordNanos(long nanos) {
    if (nanos < 0) {
      return;
    }
    double seconds = nanos / 1e9;
    for (int i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]) {
        counts[i].increment();
        break;
      }
    }
    count.increment();
    sumNanos.add(nanos);
  }

  long count() {
    return count.sum();
  }

  void render(StringBuilder out) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(" histogram\n");
    long cumulative = 0;
    for (int i = 0; i < bounds.length; i++) {
      cumulative += counts[i].sum();
      out.append(name)
          .append("_bucket{le=\"")
          .append(String.format(Locale.ROOT, "%s", bounds[i]))
          .append("\"} ")
          .append(cumulative)
          .append('\n');
    }
    long total = count.sum();
    out.append(name).append("_bucket{le=\"+Inf\"} ").append(total).append('\n');
    out.append(name)
        .append("_sum ")
        .append(String.format(Locale.ROOT, "%.6f", sumNanos.sum() / 1e9))
        .append('\n');
    out.append(name).append("_count ").append(total).append('\n');
  }
}
