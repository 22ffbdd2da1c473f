package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.SimulateArtifact;
import dev.speechscale.artifacts.SimulateArtifacts;
import dev.speechscale.artifacts.StartupDelaySamples;
import dev.speechscale.chain.Flags;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.report.SimulateReport;
import dev.speechscale.report.SimulateTable;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.Policies;
import dev.speechscale.simulator.Policy;
import dev.speechscale.simulator.PolicyResult;
import dev.speechscale.simulator.RefusalCost;
import dev.speechscale.simulator.Traffic;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tts-bench simulate}: what each policy would do with a traffic trace on a fleet modelled
 * from the measured artifacts. Wiring only: reads the artifacts, builds the model, runs the
 * policies (in parallel, one thread each up to the processors; the results do not depend on it),
 * prints the comparison, writes the artifact and the HTML report. Option help: {@code
 * flags.properties}.
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Replay traffic against the plan and its rivals on a simulated fleet built from the qmax,"
          + " ttotal and plan artifacts. Reads files only.",
      "Exit 0 ok, 1 refused, 2 usage."
    })
final class SimulateCommand extends StampingCommand {
  @Spec CommandSpec spec;
  @Mixin SimulateArtifactOptions artifacts;
  @Mixin SimulateTrafficOptions traffic;
  @Mixin SimulateFleetOptions fleet;

  @Mixin OutputOption output;

  @Option(names = Flags.REPORT, paramLabel = "FILE")
  @Nullable Path report;

  @Mixin JsonOption json;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  @Nullable RefusalCostOptions refusalCost;

  SimulateCommand() {}

  SimulateCommand(NanoClock clock) {
    super(clock);
  }

  @Override
  public Integer call() {
    traffic.validate(spec);
    fleet.validate(spec);
    SimulateInputs in = artifacts.read();
    QmaxArtifact q = in.qmax();
    PlanArtifact p = in.plan();
    StartupDelaySamples delay = StartupDelaySamples.of(in.ttotals());
    InstanceModel model =
        in.instanceModel(
            delay,
            fleet.maxRequestAge.value,
            refusalCost == null ? RefusalCost.NONE : refusalCost.resolve(spec));
    List<Policy> chosen = Policies.parse(fleet.policies, in.planNumbers(model));
    Traffic offered = traffic.offered(p, artifacts.plan.file, spec);
    List<PolicyResult> results =
        ParallelPolicies.run(
            model,
            offered,
            chosen,
            fleet.options(q.sloMs(), q.platform(), spec),
            spec.commandLine().getErr());
    SimulateArtifact artifact =
        SimulateArtifacts.build(
            new SimulateArtifacts.Sources(
                q.model(),
                p.endpoint(),
                q.sloMs(),
                fleet.seed.value,
                fleet.metricDelay.resolved(q.platform()).toNanos() / 1e9,
                fleet.pricePerHour,
                offered,
                traffic.source(),
                model,
                delay.source(),
                in.sources(),
                results,
                Provenance.capture(Cli.typedUnderTtsBench(spec), parameters(q.platform())),
                clock.instant()));
    Path target = output.orDefault(artifact.defaultFileName());
    ArtifactCodec.write(target, artifact);
    Path html = report != null ? report : Path.of("simulate-" + q.model() + ".html");
    ArtifactCodec.writeText(html, SimulateReport.html(artifact));
    PrintWriter out = spec.commandLine().getOut();
    if (!json.printed(out, artifact)) {
      out.print(SimulateTable.render(artifact));
    }
    spec.commandLine().getErr().println("wrote " + target + " and " + html);
    return 0;
  }

  private Map<String, Object> parameters(String platform) {
    Map<String, Object> m = new LinkedHashMap<>();
    artifacts.record(m);
    traffic.record(m);
    fleet.record(m, platform);
    if (refusalCost != null) {
      refusalCost.record(m);
    }
    return m;
  }
}
