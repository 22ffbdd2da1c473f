package dev.speechscale.server;

import dev.speechscale.admission.GateSnapshot;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * speech-server's metrics, rendered in the Prometheus text format at {@code GET /metrics}. Gauges
 * come from the admission gate at scrape time; counters and histograms are lock-free adders.
 */
final class ServerMetrics {
  static final String PREFIX = "speech_server_";

  private final Map<String, LongAdder> rejected = new ConcurrentHashMap<>();
  private final Map<StreamFailure, LongAdder> streamFailures = new EnumMap<>(StreamFailure.class);
  private final Map<String, Map<Integer, LongAdder>> responses = new ConcurrentHashMap<>();
  private final LongAdder audioSamplesAtNative = new LongAdder();
  private final LongAdder completed = new LongAdder();
  final Histogram ttfab =
      new Histogram(
          PREFIX + "ttfab_seconds",
          "Request arrival to first audio byte written, queue included.",
          Histogram.LATENCY_BUCKETS_S);
  final Histogram synthesis =
      new Histogram(
          PREFIX + "synthesis_seconds",
          "Engine time per request, from start of synthesis to its last chunk.",
          Histogram.LATENCY_BUCKETS_S);
  final Histogram queueWait =
      new Histogram(
          PREFIX + "queue_wait_seconds",
          "Time admitted requests waited for an execution slot.",
          Histogram.LATENCY_BUCKETS_S);

  ServerMetrics() {
    for (StreamFailure f : StreamFailure.values()) {
      streamFailures.put(f, new LongAdder());
    }
  }

  void rejected(String reason) {
    rejected.computeIfAbsent(reason, r -> new LongAdder()).increment();
  }

  void response(String transport, int status) {
    responses
        .computeIfAbsent(transport, t -> new ConcurrentHashMap<>())
        .computeIfAbsent(status, k -> new LongAdder())
        .increment();
  }

  void streamFailed(StreamFailure failure) {
    streamFailures.get(failure).increment();
  }

  void completed(long samplesAtNativeRate) {
    completed.increment();
    audioSamplesAtNative.add(samplesAtNativeRate);
  }

  long rejectedCount(String reason) {
    LongAdder a = rejected.get(reason);
    return a == null ? 0 : a.sum();
  }

  /**
   * Every deliberate HTTP 503 on {@code /invocations} (queue_saturated, deadline_shed,
   * shutting_down, not_ready): the server answers 503 only on purpose, a failure is a 500.
   * WebSocket refusals are not counted: they are never an HTTP 5xx.
   */
  long deliberateHttp503() {
    var byStatus = responses.get(InvocationsHandler.TRANSPORT);
    LongAdder refused = byStatus == null ? null : byStatus.get(503);
    return refused == null ? 0 : refused.sum();
  }

  long responsesWithStatus(int status) {
    return responses.values().stream()
        .map(byStatus -> byStatus.get(status))
        .filter(java.util.Objects::nonNull)
        .mapToLong(LongAdder::sum)
        .sum();
  }

  /** Renders every metric; {@code gate} may be null before the engine is loaded. */
  String render(GateSnapshot gate, String engine, int sampleRateHz, boolean ready) {
    StringBuilder out = new StringBuilder(4096);
    gauge(
        out,
        "in_flight",
        "Requests admitted and not finished: queued + executing + streaming.",
        gate == null ? 0 : gate.inFlight());
    gauge(
        out, "queued", "Requests waiting for an execution slot.", gate == null ? 0 : gate.queued());
    gauge(
        out,
        "executing",
        "Requests holding an execution slot (engine running).",
        gate == null ? 0 : gate.executing());
    gauge(
        out,
        "streaming",
        "Requests whose synthesis ended but whose audio is still being sent.",
        gate == null ? 0 : gate.streaming());
    gauge(
        out,
        "max_queue_depth",
        "The in-flight bound (MAX_QUEUE_DEPTH); 0 means no bound.",
        gate == null ? 0 : gate.maxInFlight());
    gauge(
        out,
        "ready",
        "1 once the engine is loaded and warmed up (GET /ping answers 200).",
        ready ? 1 : 0);
    counter(
        out,
        "admitted_total",
        "Requests admitted by the gate.",
        gate == null ? 0 : gate.admittedTotal());
    counter(out, "completed_total", "Requests whose audio was fully delivered.", completed.sum());
    out.append("# HELP ").append(PREFIX).append("rejected_total Requests refused, by reason.\n");
    out.append("# TYPE ").append(PREFIX).append("rejected_total counter\n");
    rejected.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> labelled(out, "rejected_total", "reason", e.getKey(), e.getValue().sum()));
    out.append("# HELP ")
        .append(PREFIX)
        .append(
            "stream_failures_total Streams ended early after their first byte or after admission, by reason.\n");
    out.append("# TYPE ").append(PREFIX).append("stream_failures_total counter\n");
    streamFailures.forEach(
        (f, n) -> labelled(out, "stream_failures_total", "reason", f.code, n.sum()));
    out.append("# HELP ")
        .append(PREFIX)
        .append("responses_total Responses by transport and status.\n");
    out.append("# TYPE ").append(PREFIX).append("responses_total counter\n");
    new java.util.TreeMap<>(responses)
        .forEach((transport, byStatus) ->
            new java.util.TreeMap<>(byStatus)
                .forEach((status, count) ->
                    out.append(PREFIX)
                        .append("responses_total{transport=\"")
                        .append(transport)
                        .append("\",status=\"")
                        .append(status)
                        .append("\"} ")
                        .append(count.sum())
                        .append('\n')));
    out.append("# HELP ")
        .append(PREFIX)
        .append(
            "audio_seconds_total Seconds of audio produced by the engine for delivered requests.\n");
    out.append("# TYPE ").append(PREFIX).append("audio_seconds_total counter\n");
    out.append(PREFIX)
        .append("audio_seconds_total ")
        .append(
            String.format(
                Locale.ROOT,
                "%.3f",
                sampleRateHz == 0 ? 0.0 : audioSamplesAtNative.sum() / (double) sampleRateHz))
        .append('\n');
    ttfab.render(out);
    synthesis.render(out);
    queueWait.render(out);
    out.append("# HELP ").append(PREFIX).append("info The engine serving this process.\n");
    out.append("# TYPE ").append(PREFIX).append("info gauge\n");
    out.append(PREFIX)
        .append("info{engine=\"")
        .append(engine)
        .append("\",sample_rate=\"")
        .append(sampleRateHz)
        .append("\"} 1\n");
    return out.toString();
  }

  private static void gauge(StringBuilder out, String name, String help, long value) {
    out.append("# HELP ").append(PREFIX).append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(PREFIX).append(name).append(" gauge\n");
    out.append(PREFIX).append(name).append(' ').append(value).append('\n');
  }

  private static void counter(StringBuilder out, String name, String help, long value) {
    out.append("# HELP ").append(PREFIX).append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(PREFIX).append(name).append(" counter\n");
    out.append(PREFIX).append(name).append(' ').append(value).append('\n');
  }

  private static void labelled(
      StringBuilder out, String name, String label, String value, long count) {
    out.append(PREFIX)
        .append(name)
        .append('{')
        .append(label)
        .append("=\"")
        .append(value)
        .append("\"} ")
        .append(count)
        .append('\n');
  }
}
