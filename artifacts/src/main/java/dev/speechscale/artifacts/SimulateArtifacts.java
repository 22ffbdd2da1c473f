package dev.speechscale.artifacts;

import dev.speechscale.simulator.FirstByte;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.PolicyResult;
import dev.speechscale.simulator.Traffic;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Builds a {@link SimulateArtifact} from the simulator's results and what they came from. */
public final class SimulateArtifacts {
  private SimulateArtifacts() {}

  /**
   * Everything a simulate artifact records.
   *
   * @param model the model
   * @param endpoint the endpoint
   * @param sloMs the SLO
   * @param seed the seed
   * @param metricPublicationDelayS the publication delay
   * @param pricePerHour price per instance-hour, or {@code null}
   * @param traffic the traffic
   * @param trafficSource {@code pattern} or {@code trace}
   * @param instance the instance model
   * @param startupDelaySource where the start-up delay came from
   * @param inputs the artifacts read
   * @param results one per policy, in order
   * @param provenance this run's provenance
   * @param now the creation time
   */
  public record Sources(
      String model,
      String endpoint,
      double sloMs,
      long seed,
      double metricPublicationDelayS,
      @Nullable Double pricePerHour,
      Traffic traffic,
      String trafficSource,
      InstanceModel instance,
      String startupDelaySource,
      List<PlanArtifact.SourceFile> inputs,
      List<PolicyResult> results,
      Provenance provenance,
      Instant now) {}

  public static SimulateArtifact build(Sources in) {
    InstanceModel m = in.instance();
    return new SimulateArtifact(
        Header.of(ArtifactKind.SIMULATE, Stamp.current(in.now(), in.provenance())),
        in.model(),
        in.endpoint(),
        in.sloMs(),
        in.seed(),
        in.metricPublicationDelayS(),
        in.pricePerHour(),
        new SimulateArtifact.TrafficSection(
            in.trafficSource(),
            in.traffic().description(),
            in.traffic().durationSeconds(),
            in.traffic().peakPerSecond(),
            in.traffic().expectedArrivals()),
        new SimulateArtifact.InstanceSection(
            m.slots(),
            m.saturatedPerSecond(),
            m.responseTimes().meanSeconds(),
            m.occupancyScale(),
            m.firstByte() instanceof FirstByte.Proportional p ? p.ratio() : null,
            m.firstByte() instanceof FirstByte.ByConcurrency c
                ? c.means().stream()
                    .map(x ->
                        new SimulateArtifact.FirstBytePoint(x.inFlight(), x.meanSeconds() * 1000))
                    .toList()
                : null,
            m.queueMaxDepth(),
            m.requestDeadline().toNanos() / 1e9,
            m.startupDelays().meanSeconds(),
            java.util.Arrays.stream(m.startupDelays().seconds()).boxed().toList(),
            in.startupDelaySource(),
            m.derivation()),
        in.inputs(),
        in.results().stream().map(r -> policy(r, in.pricePerHour())).toList());
  }

  private static SimulateArtifact.PolicySection policy(PolicyResult r, @Nullable Double price) {
    return new SimulateArtifact.PolicySection(
        r.policy(),
        r.description(),
        r.arrived(),
        r.served(),
        r.shed(),
        r.shedQueueFull(),
        r.shedDeadline(),
        r.shedNoInstance(),
        100 * r.shedFraction(),
        100 * r.sloAttainment(),
        orNull(r.ttfabMeanMs()),
        orNull(r.ttfabP50Ms()),
        orNull(r.ttfabP95Ms()),
        orNull(r.ttfabP99Ms()),
        r.peakInService(),
        r.meanInService(),
        r.instanceHours(),
        price == null ? null : r.instanceHours() * price,
        r.scaleOuts(),
        r.scaleIns(),
        r.secondsAtMax(),
        minutes(r.minutes()),
        r.events().stream()
            .map(e ->
                new SimulateArtifact.Event(
                    e.decidedAtSeconds(),
                    e.from(),
                    e.to(),
                    e.cause(),
                    e.inServiceAtSeconds().isPresent() ? e.inServiceAtSeconds().getAsLong() : null))
            .toList());
  }

  private static SimulateArtifact.MinuteSeries minutes(List<PolicyResult.Minute> rows) {
    int n = rows.size();
    List<Long> arrived = new ArrayList<>(n);
    List<Long> served = new ArrayList<>(n);
    List<Long> shed = new ArrayList<>(n);
    List<Long> misses = new ArrayList<>(n);
    List<Double> p95 = new ArrayList<>(n);
    List<Double> mean = new ArrayList<>(n);
    List<Integer> max = new ArrayList<>(n);
    for (PolicyResult.Minute m : rows) {
      arrived.add(m.arrived());
      served.add(m.served());
      shed.add(m.shed());
      misses.add(m.sloMisses());
      p95.add(Double.isNaN(m.ttfabP95Ms()) ? null : round3(m.ttfabP95Ms()));
      mean.add(round3(m.meanInService()));
      max.add(m.maxInService());
    }
    return new SimulateArtifact.MinuteSeries(arrived, served, shed, misses, p95, mean, max);
  }

  /** Three decimals: the histogram resolves 0.8 %, more digits would only be noise in the file. */
  private static double round3(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  private static @Nullable Double orNull(double v) {
    return Double.isNaN(v) ? null : v;
  }
}
