package dev.speechscale.chain;

import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.platform.Transport;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One {@code ttotal} measurement, as {@code tts-bench ttotal} parses it and {@code quickstart}
 * builds it: the artifact's parameters and the command line that runs it again are read off the
 * request.
 *
 * @param target the endpoint
 * @param qmax the qmax artifact's file: the ladder recovery is judged against
 * @param probe the probe load
 * @param timing how long each phase lasts
 * @param runs scale-outs to time
 * @param allowConfigMismatch pair a ladder of another fingerprint (warns)
 */
public record TtotalRequest(
    Target target,
    Path qmax,
    Probe probe,
    TtotalRun.Timing timing,
    int runs,
    boolean allowConfigMismatch) {

  /**
   * The probe load.
   *
   * @param transport its transport; the ladder's
   * @param concurrency N, or {@code null} for the largest even usable rung ≤ Q_max whose half is a
   *     usable rung
   * @param texts one request text per line, or {@code null} for the built-in sentences
   */
  public record Probe(Transport transport, @Nullable Integer concurrency, @Nullable Path texts) {}

  /** The arguments that run this request again, after {@code tts-bench ttotal}. */
  public List<String> arguments() {
    return new Args()
        .addAll(target.arguments())
        .add(Flags.QMAX, qmax)
        .add(Flags.TRANSPORT, probe.transport().label())
        .optional(Flags.PROBE_CONCURRENCY, probe.concurrency())
        .optional(Flags.TEXTS, probe.texts())
        .add(Flags.RECOVERY_WINDOW, timing.recoveryWindow())
        .add(Flags.SETTLE, timing.settle())
        .optional(Flags.TIMEOUT, timing.timeout())
        .add(Flags.NEW_INSTANCE_FOR, timing.newInstanceFor())
        .add(Flags.RUNS, runs)
        .when(allowConfigMismatch, Flags.ALLOW_CONFIG_MISMATCH)
        .words();
  }

  /** {@code tts-bench ttotal} with {@link #arguments()}. */
  public String commandLine() {
    return "tts-bench ttotal " + String.join(" ", arguments());
  }

  /** The run's parameters, as the artifact records them. */
  public Map<String, Object> parameters() {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("model", target.model());
    params.put("qmax", qmax.toString());
    params.put("probe_concurrency", probe.concurrency());
    params.put("recovery_window_s", timing.recoveryWindow().toMillis() / 1000.0);
    params.put("settle_s", timing.settle().toMillis() / 1000.0);
    params.put("new_instance_for_s", timing.newInstanceFor().toMillis() / 1000.0);
    params.put("allow_config_mismatch", allowConfigMismatch);
    params.put("runs", runs);
    return params;
  }

  /** One scale-out's options against the ladder {@code q} read from {@link #qmax()}. */
  TtotalRun.Options options(QmaxArtifact q) {
    return new TtotalRun.Options(
        target.model(),
        q,
        qmax.toString(),
        new TtotalRun.Probe(probe.transport(), probe.concurrency(), Texts.load(probe.texts()), 1),
        timing,
        allowConfigMismatch,
        commandLine(),
        parameters());
  }
}
