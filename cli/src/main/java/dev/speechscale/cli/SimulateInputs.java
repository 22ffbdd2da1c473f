package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.FirstByteEvidences;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.PlanArtifacts;
import dev.speechscale.artifacts.PlanSaturation;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ScaleOutColdStart;
import dev.speechscale.artifacts.StartupDelaySamples;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.Policies;
import dev.speechscale.simulator.RefusalCost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The artifacts {@code simulate} reads — one qmax, one or more ttotal, one plan — read and checked
 * to be of one model, with what the simulation takes from them.
 */
record SimulateInputs(
    Path qmaxFile,
    QmaxArtifact qmax,
    List<StartupDelaySamples.Input> ttotals,
    Path planFile,
    PlanArtifact plan) {

  SimulateInputs {
    ttotals = List.copyOf(ttotals);
  }

  /**
   * The simulated instance: qmax's measurement, the plan's saturation and queue bound, the ttotal
   * runs' start-up {@code delay}s, the server's deadline and what a refusal costs it.
   */
  InstanceModel instanceModel(StartupDelaySamples delay, Duration maxRequestAge, RefusalCost cost) {
    String source = qmaxFile.toString();
    return InstanceModel.fromMeasurement(
            qmax.measurement(source),
            FirstByteEvidences.of(qmax),
            PlanSaturation.of(plan),
            plan.queueMaxDepth(),
            maxRequestAge,
            delay.delays())
        .withRefusalCost(cost)
        .withColdStart(ScaleOutColdStart.of(ttotals, qmax, source))
        .withIdleStart(qmax.idleStartFactors(source));
  }

  /** Reads the three kinds of artifact and refuses a set of more than one model. */
  static SimulateInputs read(Path qmaxFile, List<Path> ttotalFiles, Path planFile) {
    QmaxArtifact q = ArtifactCodec.readQmax(qmaxFile);
    List<StartupDelaySamples.Input> ttotals = new ArrayList<>();
    for (Path file : ttotalFiles) {
      ttotals.add(new StartupDelaySamples.Input(ArtifactCodec.readTtotal(file), file.toString()));
    }
    PlanArtifact p = ArtifactCodec.readPlan(planFile);
    SimulateInputs inputs = new SimulateInputs(qmaxFile, q, ttotals, planFile, p);
    for (StartupDelaySamples.Input t : ttotals) {
      inputs.checkSameModel(t.artifact(), Path.of(t.file()));
    }
    return inputs;
  }

  private void checkSameModel(TtotalArtifact t, Path ttotal) {
    if (!qmax.model().equals(t.model()) || !qmax.model().equals(plan.model())) {
      throw new CliException(
          String.format(
              Locale.ROOT,
              "the artifacts are for different models (qmax %s: '%s', ttotal %s: '%s', plan %s:"
                  + " '%s'); simulate artifacts of one model",
              qmaxFile,
              qmax.model(),
              ttotal,
              t.model(),
              planFile,
              plan.model()));
    }
  }

  /** Every file read, as the artifact's sources. */
  List<PlanArtifact.SourceFile> sources() {
    List<PlanArtifact.SourceFile> out = new ArrayList<>();
    out.add(PlanArtifacts.source(qmaxFile.toString(), qmax));
    for (StartupDelaySamples.Input t : ttotals) {
      out.add(PlanArtifacts.source(t.file(), t.artifact()));
    }
    out.add(PlanArtifacts.source(planFile.toString(), plan));
    return out;
  }

  /** The plan's rules and the figures behind them, as the plan policy reads them. */
  Policies.PlanNumbers planNumbers(InstanceModel model) {
    return dev.speechscale.chain.SearchModel.planNumbers(plan, model);
  }
}
