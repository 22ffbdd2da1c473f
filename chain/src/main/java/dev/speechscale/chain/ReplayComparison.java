package dev.speechscale.chain;

import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.FleetFigures;
import dev.speechscale.artifacts.Header;
import dev.speechscale.artifacts.HostSpeedLog;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.artifacts.ReplayRows;
import dev.speechscale.artifacts.Stamp;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.PolicyResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Puts the prediction beside the measurement, figure by figure, against the calibration targets:
 * shed fraction within ±2 percentage points, surge-to-in-service within ±15 %, and p95 TTFAB per
 * minute within ±15 % outside the surge minute (the minute holding the surge start, where a few
 * seconds of detection timing move the p95 by multiples). Mean instances in service per minute are
 * reported, not judged.
 */
public final class ReplayComparison {
  /** Shed fraction tolerance, percentage points. */
  public static final double SHED_TOLERANCE_PP = 2;

  /** Surge-to-in-service tolerance, percent of the measured time. */
  public static final double SURGE_TOLERANCE_PERCENT = 15;

  /** Per-minute p95 TTFAB tolerance, percent of the measured value. */
  public static final double P95_TOLERANCE_PERCENT = 15;

  private ReplayComparison() {}

  /**
   * Where the replay came from.
   *
   * @param model the model
   * @param trace the trace file
   * @param inputs the artifacts' paths
   * @param command the command line
   * @param parameters effective parameters
   */
  public record About(
      String model,
      String trace,
      ReplayArtifact.Inputs inputs,
      String command,
      Map<String, Object> parameters) {}

  /** The recorded history the prediction started from, NaN written as null; else null. */
  private static @Nullable List<@Nullable Double> history(ReplayPrediction.Setup setup) {
    if (!(setup.options().preRoll() instanceof FleetSimulator.PreRoll.Recorded r)) {
      return null;
    }
    List<@Nullable Double> out = new ArrayList<>();
    for (double v : r.concurrencyPerInstance()) {
      out.add(Double.isNaN(v) ? null : v);
    }
    return out;
  }

  /**
   * The hosts' speed as the artifact keeps it.
   *
   * @param log the hosts during the trace, or {@code null} when not probed
   * @param referenceCpuMs the ladder's, or {@code null}
   * @param note whether the prediction took it
   */
  public record HostSpeedFigure(
      @Nullable HostSpeedLog log, @Nullable Double referenceCpuMs, @Nullable String note) {
    /** Nothing probed, nothing said. */
    public static final HostSpeedFigure NONE = new HostSpeedFigure(null, null, null);
  }

  /**
   * The replay artifact: both sides, their events and the comparison.
   *
   * @param warmup the instance's speed in the warm-up against the ladder, or {@code null}
   * @param host the hosts' speed during the trace and what the prediction did with it
   */
  public static ReplayArtifact of(
      About about,
      ReplayPrediction.Setup setup,
      PolicyResult predicted,
      LiveReplay live,
      ReplayArtifact.@Nullable Warmup warmup,
      HostSpeedFigure host,
      Instant createdAt) {
    FleetFigures p = predictedFigures(predicted, setup.policy().initialInstances(), live);
    FleetFigures m = live.figures();
    List<ReplayArtifact.Row> rows = rows(p, m, live.schedule().surgeStartS());
    return new ReplayArtifact(
        Header.of(
            ArtifactKind.REPLAY,
            Stamp.current(createdAt, Provenance.capture(about.command(), about.parameters()))),
        about.model(),
        live.origin().endpoint(),
        live.origin().platform(),
        about.trace(),
        live.schedule().traffic(),
        live.schedule().seed(),
        live.schedule().surgeStartS(),
        about.inputs(),
        setup.physics(),
        new ReplayArtifact.Live(
            live.origin().startedAt(),
            live.origin().alignedTo().toMillis() / 1000.0,
            live.schedule().sampleEvery().toMillis() / 1000.0,
            live.lateSends(),
            live.samples().isEmpty() ? 0 : live.samples().getFirst().inService(),
            warmup,
            history(setup),
            host.log(),
            host.referenceCpuMs(),
            host.note()),
        p,
        m,
        predictedEvents(predicted, setup.policy().initialInstances()),
        measuredEvents(live),
        rows,
        ReplayArtifact.Verdict.of(rows));
  }

  /**
   * The simulator's result in the replay's figures, in-service counts rebuilt from its events: a
   * scale-out adds starting instances that enter service at the event's in-service time; a scale-in
   * removes starting instances first (as the simulator does), then instances in service.
   */
  static FleetFigures predictedFigures(PolicyResult r, int initial, LiveReplay live) {
    PredictedFleet fleet =
        PredictedFleet.of(r.events(), initial, (int) live.schedule().durationS());
    List<FleetFigures.Minute> minutes =
        r.minutes().stream()
            .map(x ->
                FleetFigures.Minute.of(
                    (int) x.minute(),
                    x.arrived(),
                    x.served(),
                    x.shed(),
                    Double.isNaN(x.ttfabP95Ms()) ? null : x.ttfabP95Ms(),
                    x.meanInService()))
            .toList();
    return new FleetFigures(
        r.arrived(),
        r.served(),
        r.shed(),
        r.arrived() - r.served() - r.shed(),
        surgeToInService(r, live.schedule().surgeStartS()),
        minutes,
        fleet.inService(),
        fleet.desired());
  }

  private static @Nullable Double surgeToInService(PolicyResult r, @Nullable Double surge) {
    if (surge == null) {
      return null;
    }
    for (PolicyResult.ScalingEvent e : r.events()) {
      if (e.to() > e.from()
          && e.inServiceAtSeconds().isPresent()
          && e.inServiceAtSeconds().getAsLong() >= surge) {
        return e.inServiceAtSeconds().getAsLong() - surge;
      }
    }
    return null;
  }

  static List<ReplayArtifact.Row> rows(
      FleetFigures p, FleetFigures m, @Nullable Double surgeStartS) {
    List<ReplayArtifact.Row> rows = new ArrayList<>();
    double shedP = 100 * p.shedFraction();
    double shedM = 100 * m.shedFraction();
    rows.add(
        ComparisonRows.judged(
            "shed_fraction",
            ComparisonRows.WHOLE_RUN,
            shedP,
            shedM,
            shedP - shedM,
            "pp",
            SHED_TOLERANCE_PP));
    rows.add(
        ComparisonRows.relative(
            "surge_to_in_service_s",
            ComparisonRows.WHOLE_RUN,
            p.surgeToInServiceS(),
            m.surgeToInServiceS(),
            SURGE_TOLERANCE_PERCENT,
            "no scale-out after the surge"));
    Integer surgeMinute = surgeStartS == null ? null : (int) (surgeStartS / 60);
    int minutes = Math.min(p.minutes().size(), m.minutes().size());
    for (int i = 0; i < minutes; i++) {
      Double pp = p.minutes().get(i).p95TtfabMs();
      Double mm = m.minutes().get(i).p95TtfabMs();
      if (surgeMinute != null && i == surgeMinute) {
        rows.add(
            ReplayRows.reported(
                "p95_ttfab_ms",
                i,
                pp,
                mm,
                ComparisonRows.percent(pp, mm),
                "%",
                "the surge minute: detection timing dominates it"));
      } else {
        rows.add(ComparisonRows.p95(i, pp, m.minutes().get(i)));
      }
    }
    for (int i = 0; i < minutes; i++) {
      double pp = p.minutes().get(i).meanInService();
      double mm = m.minutes().get(i).meanInService();
      rows.add(ReplayRows.difference("mean_in_service", i, pp, mm, "reported"));
    }
    return rows;
  }

  /** Changes of desired capacity at each decision, of in-service capacity when it happened. */
  static List<ReplayArtifact.Event> predictedEvents(PolicyResult r, int initial) {
    List<ReplayArtifact.Event> out = new ArrayList<>();
    for (PolicyResult.ScalingEvent e : r.events()) {
      out.add(new ReplayArtifact.Event(e.decidedAtSeconds(), "desired", e.from(), e.to()));
      if (e.to() > e.from() && e.inServiceAtSeconds().isPresent()) {
        out.add(
            new ReplayArtifact.Event(
                e.inServiceAtSeconds().getAsLong(), "in_service", e.from(), e.to()));
      }
    }
    out.sort(java.util.Comparator.comparingDouble(ReplayArtifact.Event::atS));
    return out;
  }

  /** Every change of the sampled desired and in-service counts. */
  static List<ReplayArtifact.Event> measuredEvents(LiveReplay live) {
    List<ReplayArtifact.Event> out = new ArrayList<>();
    LiveReplay.CapacitySample prev = null;
    for (LiveReplay.CapacitySample c : live.samples()) {
      if (prev != null && c.desired() != prev.desired()) {
        out.add(new ReplayArtifact.Event(c.atS(), "desired", prev.desired(), c.desired()));
      }
      if (prev != null && c.inService() != prev.inService()) {
        out.add(new ReplayArtifact.Event(c.atS(), "in_service", prev.inService(), c.inService()));
      }
      prev = c;
    }
    return out;
  }
}
