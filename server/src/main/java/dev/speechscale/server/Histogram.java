package dev.speechscale.server;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * A latency histogram in seconds with fixed buckets, recorded in nanoseconds; lock-free to record.
 * The call sites time in nanoseconds on the server's ticker; this adapts them to the Prometheus
 * client's classic histogram, registered on the server's own registry.
 */
final class Histogram {
  /** The classic bucket upper bounds, in seconds (+Inf is added by the exposition). */
  static final double[] LATENCY_BUCKETS_S = {
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60
  };

  private final io.prometheus.metrics.core.metrics.Histogram histogram;

  /** {@code name} ends in {@code _seconds}, as the Prometheus conventions ask of a time. */
  Histogram(PrometheusRegistry registry, String name, String help) {
    this.histogram =
        io.prometheus.metrics.core.metrics.Histogram.builder()
            .name(name)
            .help(help)
            .unit(Unit.SECONDS)
            .classicOnly()
            .classicUpperBounds(LATENCY_BUCKETS_S)
            .withoutExemplars()
            .register(registry);
  }

  /** Records one duration; a negative one (a clock that went backwards) is dropped. */
  void recordNanos(long nanos) {
    if (nanos < 0) {
      return;
    }
    histogram.observe(Unit.nanosToSeconds(nanos));
  }

  /** How many durations were recorded. */
  long count() {
    HistogramSnapshot snapshot = histogram.collect();
    return snapshot.getDataPoints().isEmpty() ? 0 : snapshot.getDataPoints().get(0).getCount();
  }
}
