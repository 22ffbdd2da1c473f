package dev.speechscale.server;

import dev.speechscale.admission.GateSnapshot;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot.InfoDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The metrics read at scrape time rather than recorded: the admission gate's gauges and admitted
 * count, readiness, audio delivered (in seconds, which needs the engine's rate) and the engine's
 * info. One collector for all of them, not one callback gauge each, so a scrape takes one gate
 * reading and its gauges agree with each other ({@code in_flight = queued + executing +
 * streaming}), at the cost of one lock per scrape instead of six.
 */
final class ServingMetrics implements MultiCollector {
  private static final String P = ServerMetrics.PREFIX;
  private final Supplier<ServerMetrics.Serving> serving;
  private final LongSupplier audioSamplesAtNative;

  ServingMetrics(Supplier<ServerMetrics.Serving> serving, LongSupplier audioSamplesAtNative) {
    this.serving = serving;
    this.audioSamplesAtNative = audioSamplesAtNative;
  }

  @Override
  public MetricSnapshots collect() {
    ServerMetrics.Serving now = serving.get();
    GateSnapshot gate = now.gate(); // null before the engine is loaded
    double audioSeconds =
        now.sampleRateHz() == 0
            ? 0.0
            : audioSamplesAtNative.getAsLong() / (double) now.sampleRateHz();
    return new MetricSnapshots(
        gauge(
            "in_flight",
            "Requests admitted and not finished: queued + executing + streaming.",
            gate != null ? gate.inFlight() : 0),
        gauge(
            "queued", "Requests waiting for an execution slot.", gate != null ? gate.queued() : 0),
        gauge(
            "executing",
            "Requests holding an execution slot (engine running).",
            gate != null ? gate.executing() : 0),
        gauge(
            "streaming",
            "Requests whose synthesis ended but whose audio is still being sent.",
            gate != null ? gate.streaming() : 0),
        gauge(
            "max_queue_depth",
            "The in-flight bound (MAX_QUEUE_DEPTH); 0 means no bound.",
            gate != null ? gate.maxInFlight() : 0),
        gauge(
            "ready",
            "1 once the engine is loaded and warmed up (GET /ping answers 200).",
            now.ready() ? 1 : 0),
        counter(
            "admitted",
            "Requests admitted by the gate.",
            null,
            gate != null ? gate.admittedTotal() : 0),
        counter(
            "audio_seconds",
            "Seconds of audio produced by the engine for delivered requests.",
            Unit.SECONDS,
            audioSeconds),
        InfoSnapshot.builder()
            .name(P.substring(0, P.length() - 1))
            .help("The engine serving this process.")
            .dataPoint(
                InfoDataPointSnapshot.builder()
                    .labels(
                        Labels.of(
                            "engine",
                            now.engine(),
                            "sample_rate",
                            Integer.toString(now.sampleRateHz())))
                    .build())
            .build());
  }

  @Override
  public List<String> getPrometheusNames() {
    return List.of(
        P + "in_flight",
        P + "queued",
        P + "executing",
        P + "streaming",
        P + "max_queue_depth",
        P + "ready",
        P + "admitted",
        P + "audio_seconds",
        P.substring(0, P.length() - 1));
  }

  private static MetricSnapshot gauge(String name, String help, double value) {
    return GaugeSnapshot.builder()
        .name(P + name)
        .help(help)
        .dataPoint(GaugeDataPointSnapshot.builder().value(value).build())
        .build();
  }

  private static MetricSnapshot counter(
      String name, String help, @Nullable Unit unit, double value) {
    return CounterSnapshot.builder()
        .name(P + name)
        .help(help)
        .unit(unit)
        .dataPoint(CounterDataPointSnapshot.builder().value(value).build())
        .build();
  }
}
