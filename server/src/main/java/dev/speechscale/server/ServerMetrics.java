package dev.speechscale.server;

import dev.speechscale.admission.GateSnapshot;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * speech-server's metrics at {@code GET /metrics}, kept and rendered by the Prometheus Java client
 * on a registry of this server's own, so a JVM may hold several servers (the tests do).
 *
 * <p>What it holds: counters and latency histograms recorded on the request path; gauges read from
 * the admission gate at scrape time ({@link ServingMetrics}); the JVM's and the process's own
 * metrics ({@code jvm_*}, {@code process_*}). A scrape gets the Prometheus text format 0.0.4, or
 * OpenMetrics 1.0 when its {@code Accept} header asks for {@code application/openmetrics-text}.
 * Names follow the Prometheus conventions: counters end in {@code _total}, times are in seconds,
 * the HTTP status is the label {@code code}.
 *
 * <p>A scrape runs on Jetty's I/O thread (the router never blocks): about a quarter of a
 * millisecond, most of it the JVM's and the process's metrics ({@code process_*} reads {@code
 * /proc/self/status}, {@code jvm_threads_*} takes a thread-info snapshot); neither waits on
 * anything but the kernel. Measured in measurements/server-overhead.md, "Scrape cost".
 */
final class ServerMetrics {
  static final String PREFIX = "speech_server_";

  private static final ExpositionFormatWriter PROMETHEUS_TEXT = PrometheusTextFormatWriter.create();
  private static final ExpositionFormatWriter OPEN_METRICS = OpenMetricsTextFormatWriter.create();

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter rejected =
      counter("rejected_total", "Requests refused, by reason.", "reason");
  private final Counter streamFailures =
      counter(
          "stream_failures_total",
          "Streams ended early after their first byte or after admission, by reason.",
          "reason");
  private final Counter responses =
      counter(
          "responses_total", "Responses by transport and HTTP status code.", "transport", "code");
  private final Counter completed =
      counter("completed_total", "Requests whose audio was fully delivered.");
  private final LongAdder audioSamplesAtNative = new LongAdder();
  final Histogram ttfab =
      new Histogram(
          registry,
          PREFIX + "ttfab_seconds",
          "Request arrival to first audio byte written, queue included.");
  final Histogram synthesis =
      new Histogram(
          registry,
          PREFIX + "synthesis_seconds",
          "Engine time per request, from start of synthesis to its last chunk.");
  final Histogram queueWait =
      new Histogram(
          registry,
          PREFIX + "queue_wait_seconds",
          "Time admitted requests waited for an execution slot.");

  /**
   * What the server is serving, read at each scrape.
   *
   * @param gate the gate's counters, null before the engine is loaded
   * @param engine the engine's name
   * @param sampleRateHz the engine's native rate, 0 before it is loaded
   * @param ready whether {@code GET /ping} answers 200
   */
  record Serving(@Nullable GateSnapshot gate, String engine, int sampleRateHz, boolean ready) {}

  /** The exposition of one scrape: its content type and its body. */
  @SuppressWarnings("ArrayRecordComponent") // written once to the response, never compared
  record Exposition(String contentType, byte[] body) {}

  /** {@code serving} is called once per scrape, on the thread that answers it. */
  ServerMetrics(Supplier<Serving> serving) {
    for (StreamFailure f : StreamFailure.values()) {
      streamFailures.initLabelValues(f.code);
    }
    registry.register(new ServingMetrics(serving, audioSamplesAtNative::sum));
    JvmMetrics.builder().register(registry);
  }

  private Counter counter(String name, String help, String... labelNames) {
    return Counter.builder()
        .name(PREFIX + name)
        .help(help)
        .labelNames(labelNames)
        .withoutExemplars()
        .register(registry);
  }

  void rejected(String reason) {
    rejected.labelValues(reason).inc();
  }

  void response(String transport, int status) {
    responses.labelValues(transport, Integer.toString(status)).inc();
  }

  void streamFailed(StreamFailure failure) {
    streamFailures.labelValues(failure.code).inc();
  }

  void completed(long samplesAtNativeRate) {
    completed.inc();
    audioSamplesAtNative.add(samplesAtNativeRate);
  }

  long rejectedCount(String reason) {
    return sum(rejected, labels -> reason.equals(labels.get("reason")));
  }

  /**
   * Every deliberate HTTP 503 on {@code /invocations} (queue_saturated, deadline_shed,
   * shutting_down, not_ready): the server answers 503 only on purpose, a failure is a 500.
   * WebSocket refusals are not counted: they are never an HTTP 5xx.
   */
  long deliberateHttp503() {
    return sum(
        responses,
        labels ->
            InvocationsHandler.TRANSPORT.equals(labels.get("transport"))
                && "503".equals(labels.get("code")));
  }

  long responsesWithStatus(int status) {
    String code = Integer.toString(status);
    return sum(responses, labels -> code.equals(labels.get("code")));
  }

  /** Reads a counter's series without creating any (asking for a label set would add it). */
  private static long sum(Counter counter, Predicate<Labels> which) {
    long total = 0;
    for (CounterDataPointSnapshot point : counter.collect().getDataPoints()) {
      if (which.test(point.getLabels())) {
        total += (long) point.getValue();
      }
    }
    return total;
  }

  /**
   * Renders every metric in the format {@code accept} asks for: OpenMetrics when it names {@code
   * application/openmetrics-text}, else the Prometheus text format 0.0.4. {@code accept} may be
   * null.
   */
  Exposition scrape(@Nullable String accept) {
    return scrape(accept, name -> true);
  }

  /** Renders the metric families whose name {@code included} accepts (the benchmark's split). */
  Exposition scrape(@Nullable String accept, Predicate<String> included) {
    ExpositionFormatWriter writer = OPEN_METRICS.accepts(accept) ? OPEN_METRICS : PROMETHEUS_TEXT;
    ByteArrayOutputStream body = new ByteArrayOutputStream(32 * 1024);
    try {
      writer.write(
          body,
          registry.scrape(included),
          accept == null ? EscapingScheme.DEFAULT : EscapingScheme.fromAcceptHeader(accept));
    } catch (IOException e) {
      throw new UncheckedIOException("writing metrics to memory failed", e);
    }
    return new Exposition(writer.getContentType(), body.toByteArray());
  }
}
