package dev.speechscale.simulator;

import dev.speechscale.capacity.Ladder;
import dev.speechscale.capacity.Measurement;
import dev.speechscale.capacity.ServiceTimeDistribution;
import dev.speechscale.capacity.ThroughputCurve;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One instance of the fleet, as measured.
 *
 * <p><b>Derivation from a qmax measurement</b> ({@link #fromMeasurement}). The ladder gives the
 * uncontended full-response time distribution S (at its lowest usable rung) and the throughput
 * curve. X_sat, what one instance completes per second once saturated, is taken from one of two
 * places ({@link Saturation}):
 *
 * <ul>
 *   <li><b>the plan's X(C_scale_max)</b>, the measured curve interpolated at the concurrency the
 *       plan sizes the fleet for — what {@code simulate} and {@code replay} use whenever the plan
 *       has it. Three live calibrations on this machine (measurements/simulator-calibration.md,
 *       "Which X_sat") put it closer to what the live instance served in its saturated minute than
 *       the plateau every time (|error| 1.1 / 0.95 / 0.75 req/s against 1.7 / 6.0 / 1.3): the live
 *       surge pays for 503s, routing and a second instance's start, which a closed-loop rung at N ≥
 *       2 × slots never does, and a trend across the ladder moves the median but barely moves a
 *       point interpolated below Q_max;
 *   <li><b>the plateau</b>, without a plan: the median throughput of the usable rungs at N ≥ 2 ×
 *       slots (slots counted from the curve's peak), where a serial engine always has a queue. Not
 *       the single best rung: on a shared machine one lucky rung (often N = 1) sits 20–30 % above
 *       every other (cause 6 there). With no rung at N ≥ 2 × slots, the peak is used and the
 *       derivation says so.
 * </ul>
 *
 * By Little's law an engine that completes X_sat requests per second, each held for S_mean, has
 * X_sat·S_mean requests in service at once, so:
 *
 * <ul>
 *   <li>{@code slots = max(1, round(X_sat · S_mean))} requests execute at once (Kokoro-82M: 17.9 ×
 *       0.0613 = 1.10 → 1, a serial engine); the rest wait FIFO;
 *   <li>a request occupies its slot for {@code scale · S}, with {@code scale = slots / (X_sat ·
 *       S_mean)}, so {@code slots / occupancy_mean = X_sat} exactly: the model saturates where the
 *       ladder's plateau did;
 *   <li>its first audio byte comes after it starts on a slot ({@link FirstByte}): with the rungs'
 *       TTFAB histograms, a time that depends on how many requests the instance holds (each rung's
 *       mean TTFAB minus its closed-loop queue wait, interpolated between rungs; the lowest rung's
 *       TTFAB distribution for the shape); without them, {@code r · S}, {@code r = min(1, p95 TTFAB
 *       / p95 latency)} at the lowest rung;
 *   <li>it stays in flight (the number the platform samples) until {@code max(scale·S, S)} after it
 *       starts: the full response, streaming included.
 * </ul>
 *
 * The same draw feeding all three keeps one request's numbers consistent with each other.
 *
 * @param slots requests that execute at once
 * @param responseTimes the uncontended full-response time S
 * @param occupancyScale engine occupancy per second of S
 * @param firstByte when the first byte leaves after the request starts
 * @param queueMaxDepth requests in flight per instance before the gate answers 503 (0: no gate)
 * @param requestDeadline first byte must come within this of arrival, else the request is shed
 * @param startupDelays from the scaling decision (desired_set) to in service, one drawn per
 *     instance
 * @param derivation how the numbers were derived, for the artifact
 * @param refusalCost the instance's serving capacity each 503 at {@code queueMaxDepth} takes
 *     ({@link RefusalCost#NONE} unless measured: {@link #withRefusalCost})
 * @param coldStart how much slower an instance a scale-out starts serves its first requests ({@link
 *     ColdStart#NONE} unless measured: {@link #withColdStart})
 * @param idleStart how much faster a request that finds its slot free is served than the ladder's
 *     back-to-back requests ({@link IdleStart#NONE} unless measured: {@link #withIdleStart})
 */
public record InstanceModel(
    int slots,
    ServiceTimeDistribution responseTimes,
    double occupancyScale,
    FirstByte firstByte,
    int queueMaxDepth,
    Duration requestDeadline,
    StartupDelays startupDelays,
    String derivation,
    RefusalCost refusalCost,
    ColdStart coldStart,
    IdleStart idleStart) {

  public InstanceModel {
    if (slots < 1) {
      throw new SimulatorException("slots (" + slots + ") must be at least 1");
    }
    if (!(occupancyScale > 0) || Double.isInfinite(occupancyScale)) {
      throw new SimulatorException(
          "occupancy scale (" + occupancyScale + ") must be finite and positive");
    }
    if (queueMaxDepth < 0) {
      throw new SimulatorException(
          "queue_max_depth (" + queueMaxDepth + ") must be 0 (no gate) or positive");
    }
    if (requestDeadline.isNegative() || requestDeadline.isZero()) {
      throw new SimulatorException(
          "request deadline (" + requestDeadline + ") must be positive (MAX_REQUEST_AGE_S)");
    }
  }

  /**
   * An instance whose first byte is a fixed share of S and whose start-up delay is one value.
   *
   * @param firstByteRatio time to first byte per second of S
   * @param startupDelay from the scaling decision to in service
   */
  public InstanceModel(
      int slots,
      ServiceTimeDistribution responseTimes,
      double occupancyScale,
      double firstByteRatio,
      int queueMaxDepth,
      Duration requestDeadline,
      Duration startupDelay,
      String derivation) {
    this(
        slots,
        responseTimes,
        occupancyScale,
        new FirstByte.Proportional(firstByteRatio),
        queueMaxDepth,
        requestDeadline,
        StartupDelays.fixed(startupDelay),
        derivation,
        RefusalCost.NONE,
        ColdStart.NONE,
        IdleStart.NONE);
  }

  /**
   * This instance with each refusal at its gate costing {@code cost} of its serving capacity; the
   * derivation says so when the cost is not zero (with zero it is this model, unchanged).
   */
  public InstanceModel withRefusalCost(RefusalCost cost) {
    String because =
        cost.free()
            ? derivation
            : String.format(
                Locale.ROOT,
                "%s; each 503 at queue_max_depth takes %.4g ms of the instance (%s)",
                derivation,
                cost.secondsPerRefusal() * 1000,
                cost.source());
    return with(because, cost, coldStart, idleStart);
  }

  /**
   * This instance with every instance a scale-out starts serving its first requests {@code cold}
   * slower; the derivation says so when there are steps (with none it is this model, unchanged).
   */
  public InstanceModel withColdStart(ColdStart cold) {
    return with(noting(cold.none(), cold::describe), refusalCost, cold, idleStart);
  }

  /**
   * This instance with a request that finds its slot free served {@code idle} faster than the
   * ladder's back-to-back requests; the derivation says so unless it is {@link IdleStart#NONE}
   * (then it is this model, unchanged).
   */
  public InstanceModel withIdleStart(IdleStart idle) {
    return with(noting(idle.none(), idle::describe), refusalCost, coldStart, idle);
  }

  /** The derivation, with {@code what} after it unless there is nothing to note. */
  private String noting(boolean nothing, Supplier<String> what) {
    return nothing ? derivation : derivation + "; " + what.get();
  }

  /** This instance with another derivation, refusal cost, cold start and idle start. */
  private InstanceModel with(String because, RefusalCost cost, ColdStart cold, IdleStart idle) {
    return new InstanceModel(
        slots,
        responseTimes,
        occupancyScale,
        firstByte,
        queueMaxDepth,
        requestDeadline,
        startupDelays,
        because,
        cost,
        cold,
        idle);
  }

  /**
   * The instance a qmax measurement describes, without the rungs' TTFAB histograms (first byte a
   * fixed share of S) and with one start-up delay.
   */
  public static InstanceModel fromMeasurement(
      Measurement measurement, int queueMaxDepth, Duration requestDeadline, Duration startupDelay) {
    return fromMeasurement(
        measurement,
        Optional.empty(),
        queueMaxDepth,
        requestDeadline,
        StartupDelays.fixed(startupDelay));
  }

  /**
   * The instance a qmax measurement describes (see the class comment for the derivation).
   *
   * @param measurement the ladder and its service times
   * @param firstByte the rungs' mean TTFAB and the lowest rung's TTFAB distribution, when the
   *     artifact recorded them
   * @param queueMaxDepth the plan's queue bound (0: no gate)
   * @param requestDeadline the server's MAX_REQUEST_AGE_S
   * @param startupDelays desired_set → in_service from the ttotal artifacts
   */
  public static InstanceModel fromMeasurement(
      Measurement measurement,
      Optional<FirstByteEvidence> firstByte,
      int queueMaxDepth,
      Duration requestDeadline,
      StartupDelays startupDelays) {
    return fromMeasurement(
        measurement,
        firstByte,
        new Saturation.Plateau(),
        queueMaxDepth,
        requestDeadline,
        startupDelays);
  }

  /**
   * Where X_sat comes from: the ladder's plateau, or the plan's X(C_scale_max) (see the class
   * comment for why the plan's point is preferred when there is one).
   */
  public sealed interface Saturation {
    /** The median of the usable rungs at N ≥ 2 × slots. */
    record Plateau() implements Saturation {}

    /**
     * X_sat measured elsewhere: {@code replay} scales the plan's point by how fast the instance
     * served its warm-up against the ladder at the same N, its speed when the trace started.
     *
     * @param perSecond X_sat, requests per second per instance
     * @param source where it comes from, for the derivation
     */
    record Given(double perSecond, String source) implements Saturation {
      public Given {
        Objects.requireNonNull(source, "source");
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
          throw new SimulatorException(
              "X_sat (" + perSecond + " req/s, " + source + ") must be finite and positive");
        }
      }
    }

    /**
     * The plan's measured curve at its C_scale_max.
     *
     * @param cScaleMax the plan's C_scale_max, requests per instance
     * @param perSecond X(C_scale_max), requests per second per instance
     */
    record PlanPoint(double cScaleMax, double perSecond) implements Saturation {
      public PlanPoint {
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
          throw new SimulatorException(
              "the plan's throughput_at_c_scale_max_rps ("
                  + perSecond
                  + ") must be finite and positive; re-derive the plan with tts-bench plan");
        }
      }
    }
  }

  /**
   * The instance a qmax measurement describes, with X_sat from {@code saturation} (see the class
   * comment for the derivation).
   */
  public static InstanceModel fromMeasurement(
      Measurement measurement,
      Optional<FirstByteEvidence> firstByte,
      Saturation saturation,
      int queueMaxDepth,
      Duration requestDeadline,
      StartupDelays startupDelays) {
    Ladder ladder = measurement.ladder();
    ThroughputCurve curve = ladder.throughputCurve();
    double peak =
        curve
            .peak()
            .orElseThrow(() ->
                new SimulatorException(
                    "the qmax artifact has no usable rung with achieved_rps; the simulator"
                        + " needs the measured throughput curve (re-run tts-bench qmax)"));
    ServiceTimeDistribution s = measurement.serviceTimes();
    double sMean = s.meanSeconds();
    int peakSlots = (int) Math.max(1, Math.round(peak * sMean));
    double[] plateau =
        curve.points().stream()
            .filter(p -> Math.round(p.concurrency()) >= 2L * peakSlots)
            .mapToDouble(ThroughputCurve.Point::perSecond)
            .sorted()
            .toArray();
    double saturated;
    String saturatedFrom;
    if (saturation instanceof Saturation.PlanPoint(double cScaleMax, double perSecond)) {
      saturated = perSecond;
      saturatedFrom =
          String.format(
              Locale.ROOT,
              "the plan's X(C_scale_max = %.4g)%s; peak %.4g",
              cScaleMax,
              plateau.length == 0
                  ? ""
                  : String.format(Locale.ROOT, "; plateau %.4g", median(plateau)),
              peak);
    } else if (saturation instanceof Saturation.Given(double perSecond, String source)) {
      saturated = perSecond;
      saturatedFrom = String.format(Locale.ROOT, "%s; peak %.4g", source, peak);
    } else if (plateau.length == 0) {
      saturated = peak;
      saturatedFrom =
          String.format(
              Locale.ROOT,
              "the highest measured throughput: no usable rung at N >= 2 x %d slots",
              peakSlots);
    } else {
      saturated = median(plateau);
      saturatedFrom =
          String.format(
              Locale.ROOT,
              "plateau: median of %d usable rungs at N >= %d; peak %.4g",
              plateau.length,
              2 * peakSlots,
              peak);
    }
    int slots = (int) Math.max(1, Math.round(saturated * sMean));
    double scale = slots / (saturated * sMean);
    Ladder.ServiceTime st =
        ladder
            .serviceTime()
            .orElseThrow(() ->
                new SimulatorException(
                    "the qmax artifact's lowest usable rung has no latency_mean_ms and"
                        + " latency_p95_ms; the simulator needs them for S"));
    FirstByte fb;
    String fbFrom;
    if (firstByte.isPresent() && st.atConcurrency() <= slots) {
      List<FirstByte.Point> means = FirstByte.means(firstByte.get().rungs(), slots);
      fb = new FirstByte.ByConcurrency(firstByte.get().lowestRungTtfab(), means);
      StringBuilder b = new StringBuilder();
      for (FirstByte.Point p : means) {
        b.append(b.isEmpty() ? "" : ", ")
            .append(String.format(Locale.ROOT, "%.0f: %.1f", p.inFlight(), p.meanSeconds() * 1000));
      }
      fbFrom =
          String.format(
              Locale.ROOT,
              "first byte after start by requests held (mean TTFAB minus the closed-loop wait"
                  + " (N - slots)/X(N), ms) {%s}, interpolated; shape: the TTFAB histogram at"
                  + " concurrency %d",
              b,
              st.atConcurrency());
    } else {
      double ratio = Math.min(1.0, st.ttfabP95Ms() / 1000.0 / st.p95Seconds());
      fb = new FirstByte.Proportional(ratio);
      fbFrom =
          String.format(
              Locale.ROOT,
              "first byte = %.4f x S (p95 TTFAB %.4g ms / p95 latency %.4g ms at concurrency %d;"
                  + " %s)",
              ratio,
              st.ttfabP95Ms(),
              st.p95Seconds() * 1000,
              st.atConcurrency(),
              firstByte.isEmpty()
                  ? "the artifact has no TTFAB histograms per rung"
                  : "the lowest rung holds more requests than the engine's slots");
    }
    String derivation =
        String.format(
            Locale.ROOT,
            "X_sat %.4g req/s (%s), S_mean %.4g s (%s): slots = max(1, round(%.4g x %.4g)) = %d;"
                + " engine occupancy = %.4f x S (mean %.4g s, slots/mean = X_sat); %s",
            saturated,
            saturatedFrom,
            sMean,
            s.origin(),
            saturated,
            sMean,
            slots,
            scale,
            scale * sMean,
            fbFrom);
    return new InstanceModel(
        slots,
        s,
        scale,
        fb,
        queueMaxDepth,
        requestDeadline,
        startupDelays,
        derivation,
        RefusalCost.NONE,
        ColdStart.NONE,
        IdleStart.NONE);
  }

  /**
   * What the qmax artifact recorded about first bytes, beyond the ladder's p95s.
   *
   * @param rungs each usable rung's mean TTFAB and throughput
   * @param lowestRungTtfab the TTFAB distribution at the lowest usable rung
   */
  public record FirstByteEvidence(
      List<FirstByte.Rung> rungs, ServiceTimeDistribution lowestRungTtfab) {
    public FirstByteEvidence {
      rungs = List.copyOf(rungs);
      Objects.requireNonNull(lowestRungTtfab, "lowestRungTtfab");
    }
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** Mean engine occupancy per request, seconds. */
  public double occupancyMeanSeconds() {
    return occupancyScale * responseTimes.meanSeconds();
  }

  /** What one instance completes per second when saturated: slots / occupancy mean. */
  public double saturatedPerSecond() {
    return slots / occupancyMeanSeconds();
  }
}
