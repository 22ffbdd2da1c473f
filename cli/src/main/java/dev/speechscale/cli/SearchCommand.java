package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.chain.SearchPlan;
import dev.speechscale.chain.SearchSummary;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.PolicySearch;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code tts-bench search}: the cheapest deployable policy that meets an SLO goal on a trace.
 * Wiring only: {@link SearchInputs} reads and checks, {@link PolicySearch} searches, {@link
 * SearchSummary} prints and {@link SearchPlan} writes the plan artifact. Progress, with wall times,
 * goes to stderr; stdout and the artifact depend only on the inputs (with {@code SOURCE_DATE_EPOCH}
 * set, byte for byte).
 */
@Command(
    name = "search",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Search the policies a plan can deploy (target, scale-in threshold and alarm, cooldowns,"
          + " min, max, scheduled floors) for the cheapest that meets an SLO goal on a trace,"
          + " then score it on a held-out day against the plan and its rivals. Reads files only.",
      "Exit 0 ok, 1 refused, 2 usage."
    })
final class SearchCommand implements java.util.concurrent.Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin SearchFlags f = new SearchFlags();

  private final NanoClock clock;

  SearchCommand() {
    this(SourceDateEpoch.fromEnvironment());
  }

  SearchCommand(NanoClock clock) {
    this.clock = clock;
  }

  @Override
  public Integer call() {
    long t0 = clock.nanoTime();
    SearchInputs in = SearchInputs.read(f, spec);
    PlanArtifact p = in.files().plan();
    long heldSeed = f.heldOutSeed != null ? f.heldOutSeed : f.seed + 1;
    PolicySearch.Inputs inputs =
        new PolicySearch.Inputs(
            in.model(),
            in.traffic(),
            in.table(),
            new FleetSimulator.Options(
                in.files().qmax().sloMs(),
                MetricPhysics.delay(f.metricDelay, in.files().qmax().platform()),
                f.seed,
                new FleetSimulator.PreRoll.Window()),
            in.goal(),
            in.files().planNumbers(in.model()),
            p.minSafeInstances() != null ? p.minSafeInstances() : p.minInstances(),
            heldSeed,
            f.heldOutShift.toSeconds(),
            in.scale(),
            f.finalists,
            dev.speechscale.chain.SearchModel.floorLeadSeconds(p.tTotalS()),
            f.threads != null ? f.threads : Runtime.getRuntime().availableProcessors());
    PrintWriter err = spec.commandLine().getErr();
    PolicySearch.Result r =
        PolicySearch.run(
            inputs,
            line -> {
              err.printf(Locale.ROOT, "search: %6.1f s  %s%n", (clock.nanoTime() - t0) / 1e9, line);
              err.flush();
            });
    SearchPlan.Record rec =
        new SearchPlan.Record(
            in.goal(),
            in.traffic().description(),
            in.traceDigest(),
            f.seed,
            heldSeed,
            f.heldOutShift.toSeconds(),
            in.scale());
    Provenance provenance =
        Provenance.capture(commandLine(), Map.of("plan", f.files.plan.toString()));
    String json = SearchPlan.json(f.files.plan, r, rec, provenance, clock.instant());
    Path target = f.output != null ? f.output : Path.of("plan-search-" + p.model() + ".json");
    ArtifactCodec.writeText(target, json);
    spec.commandLine().getOut().print(SearchSummary.render(r, rec));
    err.printf(Locale.ROOT, "wrote %s in %.1f s%n", target, (clock.nanoTime() - t0) / 1e9);
    return 0;
  }

  private String commandLine() {
    List<String> args = spec.commandLine().getParseResult().originalArgs();
    boolean named = !args.isEmpty() && args.getFirst().equals(spec.name());
    return "tts-bench " + (named ? "" : spec.name() + " ") + String.join(" ", args);
  }
}
