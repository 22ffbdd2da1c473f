package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The result of {@code tts-bench replay}: one trace replayed against the live endpoint and
 * simulated with the same arrivals, the measured artifacts and the endpoint's deployed rules, with
 * the prediction error beside each figure.
 *
 * <p>It opens with the {@link Header} every artifact shares, unwrapped into the JSON's top level.
 *
 * @param header schema version, kind and stamp
 * @param model the model
 * @param endpoint the endpoint
 * @param platform {@code local} or {@code aws}
 * @param trace the trace file
 * @param traffic what the trace is
 * @param seed the arrivals' seed, the same for the simulation and the live run
 * @param surgeStartS seconds from the trace's start to its surge, or {@code null}
 * @param inputs the artifacts the prediction was built from
 * @param physics what the simulation assumed about the platform
 * @param live how the live run went
 * @param predicted the simulator's figures
 * @param measured the live fleet's figures
 * @param predictedEvents the simulated scaling decisions
 * @param measuredEvents the changes of desired and in-service counts the live run saw
 * @param comparison each figure predicted against measured, with its tolerance
 * @param verdict {@code within} when every judged figure is inside its tolerance, else {@code miss
 *     (N)}
 */
public record ReplayArtifact(
    @JsonUnwrapped Header header,
    String model,
    String endpoint,
    String platform,
    String trace,
    String traffic,
    long seed,
    @Nullable Double surgeStartS,
    Inputs inputs,
    Physics physics,
    Live live,
    FleetFigures predicted,
    FleetFigures measured,
    List<Event> predictedEvents,
    List<Event> measuredEvents,
    List<Row> comparison,
    Verdict verdict)
    implements Artifact.Sectioned {

  public ReplayArtifact {
    Objects.requireNonNull(predicted, "predicted");
    Objects.requireNonNull(measured, "measured");
    predictedEvents = List.copyOf(predictedEvents);
    measuredEvents = List.copyOf(measuredEvents);
    comparison = List.copyOf(comparison);
  }

  /**
   * The artifacts the prediction was built from.
   *
   * @param qmax the qmax artifact (instance model)
   * @param ttotal the ttotal artifact (start-up delay)
   * @param plan the plan artifact
   */
  public record Inputs(String qmax, String ttotal, String plan) {}

  /**
   * The platform as simulated.
   *
   * @param metricDelayS metric publication delay (0 locally)
   * @param minInstances deployed floor
   * @param maxInstances deployed ceiling
   * @param targetValue deployed target tracking value
   * @param scaleInThreshold deployed scale-in threshold
   * @param scaleOutCooldownS deployed scale-out cooldown
   * @param scaleInCooldownS deployed scale-in cooldown
   * @param timeScale the deployed alarm periods over AWS's (1: 10 s and 60 s; the local platform
   *     may compress them)
   * @param startupDelayS desired_set to in_service, from the ttotal artifact
   * @param instanceModel how the instance model was derived from the qmax artifact
   * @param preRollS the warm history simulated before t = 0 (the deployed policy's longest alarm
   *     window), so the prediction starts with the alarms the quiet live fleet had; {@code null} in
   *     artifacts written before the pre-roll existed (their prediction had none)
   */
  public record Physics(
      double metricDelayS,
      int minInstances,
      int maxInstances,
      double targetValue,
      double scaleInThreshold,
      int scaleOutCooldownS,
      int scaleInCooldownS,
      double timeScale,
      double startupDelayS,
      String instanceModel,
      Double preRollS) {

    /** The same physics with {@code instanceModel} and {@code preRollS} instead. */
    public Physics with(String instanceModel, Double preRollS) {
      return new Physics(
          metricDelayS,
          minInstances,
          maxInstances,
          targetValue,
          scaleInThreshold,
          scaleOutCooldownS,
          scaleInCooldownS,
          timeScale,
          startupDelayS,
          instanceModel,
          preRollS);
    }
  }

  /**
   * How the live run went.
   *
   * @param startedAt wall time of the trace's start
   * @param alignedToS the alarm period the start was aligned to (0 for none)
   * @param sampleEveryS how often instance counts were read
   * @param lateSends requests sent more than 5 ms after their intended time
   * @param initialInService instances in service when the trace started
   * @param warmup how fast the instance served the warm-up before the trace (additive; absent
   *     without a warm-up and in older artifacts)
   * @param historyConcurrency the endpoint's ConcurrentRequestsPerModel per second before the
   *     trace, oldest first, as read back for the prediction's alarms ({@code --pre-roll live};
   *     {@code null} for a second without a sample); absent with a simulated pre-roll and in older
   *     artifacts
   * @param hostSpeed how fast the hosts under the live fleet ran, second 0 the trace's start
   *     (additive; absent where the platform has no probe and in older artifacts)
   * @param hostSpeedReferenceCpuMs the speed the instance model's X_sat was measured at, from the
   *     qmax artifact ({@link QmaxArtifact#hostSpeedReference}; absent without a host log)
   * @param hostSpeedNote whether the prediction took the hosts' speed, and why or why not
   *     (additive)
   */
  public record Live(
      Instant startedAt,
      double alignedToS,
      double sampleEveryS,
      long lateSends,
      int initialInService,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Warmup warmup,
      @JsonInclude(JsonInclude.Include.NON_NULL)
          @Nullable List<@Nullable Double> historyConcurrency,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable HostSpeedLog hostSpeed,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double hostSpeedReferenceCpuMs,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String hostSpeedNote) {}

  /**
   * The instance's speed when the trace started: what it served in the second half of the replay's
   * warm-up (closed loop at N, one instance, as the ladder measured it), against the qmax ladder's
   * X at the same N. With {@code applied}, the prediction's X_sat is the plan's X (C_scale_max)
   * times {@code ratio}.
   *
   * @param concurrency the warm-up's N
   * @param requests successful requests that ended in its second half
   * @param seconds that half's length
   * @param servedRps {@code requests / seconds}
   * @param ladderRps the ladder's X at N (its throughput curve, interpolated), or {@code null}
   * @param ratio {@code servedRps / ladderRps}, or {@code null}
   * @param applied whether the prediction's X_sat was scaled by {@code ratio}
   * @param note why it was or was not applied
   * @param initialServed successful requests of the whole warm-up: the replay's instance was
   *     deployed for it, and the prediction's initial instance goes on along the scale-out's cold
   *     start from there instead of starting warm (additive; absent in artifacts before 2026-12-04,
   *     whose prediction took it as warm)
   */
  public record Warmup(
      int concurrency,
      long requests,
      double seconds,
      double servedRps,
      @Nullable Double ladderRps,
      @Nullable Double ratio,
      boolean applied,
      String note,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Long initialServed) {
    public Warmup {
      Objects.requireNonNull(note, "note");
    }
  }

  /**
   * A change of capacity.
   *
   * @param atS seconds from the trace's start
   * @param what {@code desired} or {@code in_service}
   * @param from count before
   * @param to count after
   */
  public record Event(double atS, String what, int from, int to) {}

  /**
   * One figure, predicted against measured.
   *
   * @param figure {@code shed_fraction}, {@code surge_to_in_service_s}, {@code p95_ttfab_ms},
   *     {@code mean_in_service}
   * @param minute the minute for per-minute figures, else {@code null}
   * @param predicted the simulator's value, or {@code null}
   * @param measured the live value, or {@code null}
   * @param error predicted minus measured, in {@code errorUnit}, or {@code null}
   * @param errorUnit {@code pp} (percentage points) or {@code %} (of the measured value), or {@code
   *     null} for a figure that is only reported
   * @param tolerance the largest error that counts as within, or {@code null} when not judged
   * @param result {@code within}, {@code miss}, {@code unresolved} (beyond the tolerance but inside
   *     the measured value's sampling interval: too few samples to tell) or {@code not_judged}
   * @param note why a figure is not judged, or what it means; {@code null} for a judged figure
   */
  public record Row(
      String figure,
      @Nullable Integer minute,
      @Nullable Double predicted,
      @Nullable Double measured,
      @Nullable Double error,
      @Nullable String errorUnit,
      @Nullable Double tolerance,
      Result result,
      @Nullable String note) {}

  /**
   * A row's result, written as {@code within}, {@code miss}, {@code unresolved} or {@code
   * not_judged}.
   */
  public enum Result implements Labelled {
    WITHIN,
    MISS,
    /** Beyond the tolerance but inside the measured value's sampling interval: too few samples. */
    UNRESOLVED,
    NOT_JUDGED;

    /** Parses a label written by {@link #label()}. */
    public static Result ofLabel(String label) {
      return Labels.ofLabel(Result.class, label, "replay row result");
    }
  }

  /**
   * The replay's verdict, written {@code within} or {@code miss (N)}.
   *
   * @param misses judged figures beyond their tolerance (and, for a p95, its interval); 0 is within
   */
  public record Verdict(int misses) {
    public Verdict {
      if (misses < 0) {
        throw new ArtifactException(
            "a replay verdict's misses (" + misses + ") must not be negative");
      }
    }

    /** The verdict over these rows: their {@link Result#MISS} count. */
    public static Verdict of(List<Row> rows) {
      return new Verdict((int) rows.stream().filter(r -> r.result() == Result.MISS).count());
    }

    /** Every judged figure within (or unresolved): replay exits 0. */
    public boolean within() {
      return misses == 0;
    }

    /** The label in artifacts and output. */
    public String label() {
      return misses == 0 ? "within" : "miss (" + misses + ")";
    }

    @Override
    public String toString() {
      return label();
    }

    /** Parses a label written by {@link #label()}. */
    public static Verdict ofLabel(String label) {
      if ("within".equals(label)) {
        return new Verdict(0);
      }
      if (label != null && label.matches("miss \\([1-9][0-9]{0,8}\\)")) {
        return new Verdict(Integer.parseInt(label.substring(6, label.length() - 1)));
      }
      throw new ArtifactException("replay verdict '" + label + "' is not one of within, miss (N)");
    }
  }
}
