package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.Pairing;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.PlanArtifacts;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.capacity.Measurement;
import dev.speechscale.capacity.Plan;
import dev.speechscale.capacity.Planner;
import dev.speechscale.capacity.ScaleOutTime;
import dev.speechscale.capacity.Scenario;
import dev.speechscale.capacity.SurgeSimulation;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads the measured artifacts, checks they may be paired, and derives the plan: the wiring {@code
 * tts-bench plan} and {@code quickstart} share. Refusals are {@link CliException}s (exit 1).
 */
final class PlanDerivation {
  private PlanDerivation() {}

  /**
   * The derived plan and what it was derived from.
   *
   * @param artifact the plan artifact (not yet written)
   * @param plan the computed plan
   * @param scaleOut T as used
   * @param scenario the scenario with the ladder's SLO
   */
  record Result(PlanArtifact artifact, Plan plan, ScaleOutTime scaleOut, Scenario scenario) {}

  /**
   * Derives a plan.
   *
   * @param qmax the qmax artifact file
   * @param ttotal the ttotal artifact file, or {@code null} when {@code assumed} is given
   * @param assumed an assumed T, or {@code null}
   * @param shape the chosen inputs (its SLO is replaced by the ladder's)
   * @param slo a stated SLO that must equal the ladder's, or {@code null}
   * @param allowMismatch pair artifacts of different fingerprints
   * @param command the command line, for provenance
   * @param parameters the effective parameters, for provenance
   * @param warn where warnings go
   * @param now the creation time
   */
  static Result derive(
      Path qmax,
      Path ttotal,
      Duration assumed,
      Scenario shape,
      Duration slo,
      boolean allowMismatch,
      String command,
      Map<String, Object> parameters,
      Consumer<String> warn,
      Instant now) {
    QmaxArtifact q = ArtifactCodec.readQmax(qmax);
    Measurement measurement = q.measurement(qmax.toString());
    if (slo != null && slo.toMillis() != Math.round(q.sloMs())) {
      throw new CliException(
          String.format(
              Locale.ROOT,
              "--slo (%d ms) differs from the SLO the ladder in %s was judged against (%.0f ms);"
                  + " Q_max only holds at its own SLO: re-run `tts-bench qmax --slo %dms`, or drop"
                  + " --slo",
              slo.toMillis(),
              qmax,
              q.sloMs(),
              slo.toMillis()));
    }
    TtotalArtifact t = null;
    ScaleOutTime scaleOut;
    if (ttotal != null) {
      t = ArtifactCodec.readTtotal(ttotal);
      Pairing.Result pair =
          Pairing.fingerprints(
              "qmax " + qmax,
              q.deployedConfig(),
              "ttotal " + ttotal,
              t.deployedConfig(),
              allowMismatch);
      if (!pair.ok()) {
        throw new CliException(pair.refusal());
      }
      if (pair.warning() != null) {
        warn.accept("warning: " + pair.warning());
      }
      if (!q.model().equals(t.model())) {
        throw new CliException(
            "qmax "
                + qmax
                + " is for model '"
                + q.model()
                + "' but ttotal "
                + ttotal
                + " is for '"
                + t.model()
                + "'; pair artifacts of one model");
      }
      scaleOut = t.scaleOutTime();
    } else {
      scaleOut = ScaleOutTime.assumed(assumed.toNanos() / 1e9);
    }
    Scenario scenario =
        new Scenario(
            q.sloMs(),
            shape.surgeRatio(),
            shape.peak(),
            shape.trough(),
            shape.minFloor(),
            shape.shedTarget(),
            shape.ceilingSeconds(),
            SurgeSimulation.DEFAULT_TRIALS,
            SurgeSimulation.DEFAULT_SEED);
    Plan plan = Planner.plan(measurement, scaleOut, scenario);
    PlanArtifact artifact =
        PlanArtifacts.build(
            new PlanArtifacts.Sources(
                plan,
                q,
                qmax.toString(),
                measurement,
                t,
                t == null ? null : ttotal.toString(),
                scaleOut,
                scenario,
                Provenance.capture(command, parameters),
                now));
    return new Result(artifact, plan, scaleOut, scenario);
  }
}
