package dev.speechscale.chain;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.Pairing;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.PlanArtifacts;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.TtotalRuns;
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
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The plan step: reads the measured artifacts, checks they may be paired (one model, one
 * fingerprint unless a mismatch is allowed, the ladder's own SLO) and derives the plan. Pure
 * arithmetic over files; no endpoint. Refusals are {@link ChainException}s whose messages name the
 * file, the value and the fix; {@code tts-bench plan} and {@code quickstart} print them as they
 * are.
 */
public final class PlanRun {
  private PlanRun() {}

  /**
   * What to derive the plan from.
   *
   * @param qmax the qmax artifact file
   * @param ttotal the ttotal artifact file, or {@code null} when {@code assumedTTotal} is given
   * @param assumedTTotal an assumed T, or {@code null} when {@code ttotal} is given
   * @param shape the chosen inputs (its SLO is replaced by the ladder's)
   * @param slo a stated SLO that must equal the ladder's, or {@code null}
   * @param allowConfigMismatch pair artifacts of different fingerprints (warns instead)
   * @param command the command line, for provenance
   * @param parameters the effective parameters, for provenance
   */
  public record Options(
      Path qmax,
      @Nullable Path ttotal,
      @Nullable Duration assumedTTotal,
      Scenario shape,
      @Nullable Duration slo,
      boolean allowConfigMismatch,
      String command,
      Map<String, Object> parameters) {
    public Options {
      if ((ttotal == null) == (assumedTTotal == null)) {
        throw new ChainException(
            "give exactly one of a ttotal artifact and an assumed T (ttotal "
                + ttotal
                + ", assumed "
                + assumedTTotal
                + ")");
      }
    }

    /** From a qmax and a ttotal artifact, no stated SLO, fingerprints required to match. */
    public static Options measured(
        Path qmax, Path ttotal, Scenario shape, String command, Map<String, Object> parameters) {
      return new Options(qmax, ttotal, null, shape, null, false, command, parameters);
    }
  }

  /**
   * The derived plan and what it was derived from.
   *
   * @param artifact the plan artifact (not yet written)
   * @param plan the computed plan
   * @param scaleOut T as used
   * @param scenario the scenario with the ladder's SLO
   */
  public record Result(
      PlanArtifact artifact, Plan plan, ScaleOutTime scaleOut, Scenario scenario) {}

  /**
   * Derives the plan.
   *
   * @param o what to derive it from
   * @param warn where warnings go (a fingerprint mismatch that was allowed)
   * @param now the creation time
   */
  public static Result run(Options o, Consumer<String> warn, Instant now) {
    return run(o, TtotalRuns.Statistic.MAX, warn, now);
  }

  /**
   * Derives the plan, sizing T against {@code statistic} of the timed scale-outs when the ttotal
   * artifact carries several.
   *
   * @param o what to derive it from
   * @param statistic which run's T_total the plan sizes against
   * @param warn where warnings go
   * @param now the creation time
   */
  public static Result run(
      Options o, TtotalRuns.Statistic statistic, Consumer<String> warn, Instant now) {
    QmaxArtifact q = ArtifactCodec.readQmax(o.qmax());
    Measurement measurement = q.measurement(o.qmax().toString());
    requireLadderSlo(o, q);
    Path ttotalFile = o.ttotal();
    TtotalArtifact t = ttotalFile == null ? null : pairedTtotal(o, ttotalFile, q, warn);
    ScaleOutTime scaleOut =
        t != null
            ? t.scaleOutTime(statistic)
            : ScaleOutTime.assumed(assumedTTotal(o).toNanos() / 1e9);
    Scenario shape = o.shape();
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
                o.qmax().toString(),
                measurement,
                t,
                ttotalFile == null ? null : ttotalFile.toString(),
                scaleOut,
                scenario,
                Provenance.capture(o.command(), o.parameters()),
                now,
                statistic));
    artifact =
        PolicyConflict.apply(
            artifact,
            new PolicyConflict.Measured(
                q,
                o.qmax().toString(),
                t,
                ttotalFile == null ? null : ttotalFile.toString(),
                plan.tTotalSeconds()));
    return new Result(artifact, plan, scaleOut, scenario);
  }

  private static void requireLadderSlo(Options o, QmaxArtifact q) {
    Duration slo = o.slo();
    if (slo != null && slo.toMillis() != Math.round(q.sloMs())) {
      throw new ChainException(
          String.format(
              Locale.ROOT,
              Flags.SLO
                  + " (%d ms) differs from the SLO the ladder in %s was judged against (%.0f ms);"
                  + " Q_max only holds at its own SLO: re-run `tts-bench qmax --slo %dms`, or drop"
                  + " "
                  + Flags.SLO,
              slo.toMillis(),
              o.qmax(),
              q.sloMs(),
              slo.toMillis()));
    }
  }

  /** The assumed T: given whenever no ttotal artifact is (the options hold exactly one). */
  private static Duration assumedTTotal(Options o) {
    return Objects.requireNonNull(
        o.assumedTTotal(), "Options holds exactly one of a ttotal artifact and an assumed T");
  }

  private static TtotalArtifact pairedTtotal(
      Options o, Path ttotalFile, QmaxArtifact q, Consumer<String> warn) {
    TtotalArtifact t = ArtifactCodec.readTtotal(ttotalFile);
    Pairing.Result pair =
        Pairing.fingerprints(
            "qmax " + o.qmax(),
            q.deployedConfig(),
            "ttotal " + o.ttotal(),
            t.deployedConfig(),
            o.allowConfigMismatch());
    if (!pair.ok()) {
      throw new ChainException(Refusals.of(pair));
    }
    if (pair.warning() != null) {
      warn.accept("warning: " + pair.warning());
    }
    Pairing.Result cpu =
        Pairing.cpuLimits(
            "qmax " + o.qmax(),
            Provenance.cpuLimitOf(q.provenance()),
            "ttotal " + o.ttotal(),
            Provenance.cpuLimitOf(t.provenance()),
            o.allowConfigMismatch());
    if (!cpu.ok()) {
      throw new ChainException(Refusals.of(cpu));
    }
    if (cpu.warning() != null) {
      warn.accept("warning: " + cpu.warning());
    }
    if (!q.model().equals(t.model())) {
      throw new ChainException(
          "qmax "
              + o.qmax()
              + " is for model '"
              + q.model()
              + "' but ttotal "
              + o.ttotal()
              + " is for '"
              + t.model()
              + "'; pair artifacts of one model");
    }
    return t;
  }
}
