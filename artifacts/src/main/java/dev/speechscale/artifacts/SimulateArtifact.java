package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The result of {@code tts-bench simulate}: what each policy did with one traffic trace on a fleet
 * modelled from the measured artifacts, side by side, with per-minute series and every scaling
 * decision.
 *
 * <p>Only {@code created_at} and {@code provenance} depend on when and where it ran: the same
 * inputs and seed give the same numbers, byte for byte.
 *
 * @param header schema version, kind and stamp (unwrapped: the JSON's first five fields)
 * @param model the model
 * @param endpoint the endpoint the plan is for
 * @param sloMs the p95 TTFAB SLO (the ladder's)
 * @param seed arrivals and service times
 * @param metricPublicationDelayS how late datapoints became readable
 * @param pricePerHour the price of one instance-hour, or {@code null} when not given
 * @param traffic what was offered
 * @param instance how one instance was modelled
 * @param inputs the artifacts it was built from
 * @param policies one entry per policy, in the order asked
 */
public record SimulateArtifact(
    @JsonUnwrapped Header header,
    String model,
    String endpoint,
    double sloMs,
    long seed,
    double metricPublicationDelayS,
    @Nullable Double pricePerHour,
    TrafficSection traffic,
    InstanceSection instance,
    List<PlanArtifact.SourceFile> inputs,
    List<PolicySection> policies)
    implements Artifact.Sectioned {

  public SimulateArtifact {
    inputs = List.copyOf(inputs);
    policies = List.copyOf(policies);
  }

  /** The default file name: {@code simulate-<model>.json}. */
  public String defaultFileName() {
    return "simulate-" + model + ".json";
  }

  /**
   * The offered traffic.
   *
   * @param source {@code pattern} or {@code trace}
   * @param description the shape and its numbers, or the trace's name and extent
   * @param durationS simulated seconds
   * @param peakRps highest rate
   * @param expectedArrivals expected arrivals (exact for a recorded trace)
   */
  public record TrafficSection(
      String source, String description, long durationS, double peakRps, double expectedArrivals) {}

  /**
   * One modelled instance.
   *
   * @param slots requests that execute at once
   * @param saturatedRps what it completes per second when saturated
   * @param sMeanS mean uncontended full-response time
   * @param occupancyScale engine occupancy per second of S
   * @param firstByteRatio first byte per second of S, or {@code null} when the first byte depends
   *     on the requests held ({@code first_byte_by_in_flight})
   * @param firstByteByInFlight mean first byte after start per requests held, from the rungs, or
   *     {@code null} when it is a share of S
   * @param queueMaxDepth the gate's bound (0: none)
   * @param requestDeadlineS MAX_REQUEST_AGE_S
   * @param startupDelayS decision to in service, the mean of the samples
   * @param startupDelaysS every measured start-up delay (each new instance draws one)
   * @param startupDelaySource where the start-up delay was read
   * @param derivation how the numbers were derived
   */
  public record InstanceSection(
      int slots,
      double saturatedRps,
      double sMeanS,
      double occupancyScale,
      @Nullable Double firstByteRatio,
      @Nullable List<FirstBytePoint> firstByteByInFlight,
      int queueMaxDepth,
      double requestDeadlineS,
      double startupDelayS,
      List<Double> startupDelaysS,
      String startupDelaySource,
      String derivation) {}

  /**
   * One point of the first-byte curve.
   *
   * @param inFlight requests the instance held
   * @param meanMs mean first byte after the request started, ms
   */
  public record FirstBytePoint(double inFlight, double meanMs) {}

  /**
   * One policy's outcome.
   *
   * @param name {@code plan}, {@code naive}, {@code invocations}, {@code cpu}, {@code fixed:N}
   * @param description its numbers
   * @param arrived requests that arrived
   * @param served requests that got a first byte
   * @param shed requests shed (the three causes below)
   * @param shedQueueFull 503 at the gate
   * @param shedDeadline shed before starting: first byte could not meet the deadline
   * @param shedNoInstance no instance in service
   * @param shedPct shed / arrived, percent
   * @param sloAttainmentPct arrivals served within the SLO, percent
   * @param ttfabMeanMs mean TTFAB of served requests, or null when none
   * @param ttfabP50Ms p50 TTFAB, or null
   * @param ttfabP95Ms p95 TTFAB, or null
   * @param ttfabP99Ms p99 TTFAB, or null
   * @param peakInstances most instances in service
   * @param meanInstances time-average instances in service
   * @param instanceHours billed instance-hours (starting, in service, draining)
   * @param cost instance-hours × price, or null without a price
   * @param scaleOuts decisions that raised desired capacity
   * @param scaleIns decisions that lowered it
   * @param timeAtMaxS seconds with desired capacity at the maximum
   * @param minutes per-minute series
   * @param events every scaling decision
   */
  public record PolicySection(
      String name,
      String description,
      long arrived,
      long served,
      long shed,
      long shedQueueFull,
      long shedDeadline,
      long shedNoInstance,
      double shedPct,
      double sloAttainmentPct,
      @Nullable Double ttfabMeanMs,
      @Nullable Double ttfabP50Ms,
      @Nullable Double ttfabP95Ms,
      @Nullable Double ttfabP99Ms,
      int peakInstances,
      double meanInstances,
      double instanceHours,
      @Nullable Double cost,
      int scaleOuts,
      int scaleIns,
      long timeAtMaxS,
      MinuteSeries minutes,
      List<Event> events) {
    public PolicySection {
      events = List.copyOf(events);
    }
  }

  /**
   * Per-minute series, one column per quantity, one entry per simulated minute.
   *
   * @param arrived arrivals
   * @param served served
   * @param shed shed
   * @param sloMisses served above the SLO
   * @param ttfabP95Ms p95 TTFAB of served requests (null when none)
   * @param meanInService average instances in service
   * @param maxInService most instances in service
   */
  public record MinuteSeries(
      List<Long> arrived,
      List<Long> served,
      List<Long> shed,
      List<Long> sloMisses,
      List<Double> ttfabP95Ms,
      List<Double> meanInService,
      List<Integer> maxInService) {
    public MinuteSeries {
      arrived = List.copyOf(arrived);
      served = List.copyOf(served);
      shed = List.copyOf(shed);
      sloMisses = List.copyOf(sloMisses);
      ttfabP95Ms = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(ttfabP95Ms));
      meanInService = List.copyOf(meanInService);
      maxInService = List.copyOf(maxInService);
    }
  }

  /**
   * One scaling decision.
   *
   * @param decidedAtS when, seconds from the start
   * @param from desired before
   * @param to desired after
   * @param cause the policy's reason
   * @param inServiceAtS for a scale-out, when its last instance came into service (null if never)
   */
  public record Event(
      long decidedAtS, int from, int to, String cause, @Nullable Long inServiceAtS) {}
}
