package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.DriftArtifact;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.chain.Drift;
import dev.speechscale.platform.Platform;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tts-bench drift}: read-only reconciliation of deployed scaling vs config and plan. */
@Command(
    name = "drift",
    mixinStandardHelpOptions = true,
    description = {
      "Compare what is deployed (scalable target, policies, scale-in alarm, suspended flags,"
          + " orphans, alarm data) with the endpoint config and the plan. Read-only.",
      "Exit 0 clean (or warnings only), 1 on any error."
    })
final class DriftCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ChainOptions common;

  @Option(
      names = "--plan",
      paramLabel = "FILE",
      description = "the plan deployed behind (default plan-<model>.json beside the config)")
  Path plan;

  @Option(names = "--output", paramLabel = "FILE", description = "also write a drift artifact")
  Path output;

  @Option(names = "--json", description = "print the drift artifact as JSON")
  boolean json;

  @Override
  public Integer call() {
    EndpointConfig config = common.endpointConfig();
    Path planPath = plan != null ? plan : common.defaultPlan();
    PlanArtifact p =
        plan != null || Files.exists(planPath) ? ArtifactCodec.readPlan(planPath) : null;
    DriftArtifact artifact;
    try (Platform platform = common.open()) {
      artifact =
          Drift.run(
              new Drift.Inputs(platform, config, p, planPath.toString()),
              "tts-bench drift",
              Map.of(
                  "model", common.model, "platform", common.platform, "plan", planPath.toString()),
              Clock.systemUTC());
    }
    List<DriftArtifact.Item> items = artifact.items();
    boolean clean = artifact.clean();
    if (output != null) {
      ArtifactCodec.write(output, artifact);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.print(ArtifactCodec.toJson(artifact));
    } else {
      for (DriftArtifact.Item i : items) {
        out.printf(
            "%-5s %-20s expected %s, deployed %s: %s%n",
            i.severity().label().toUpperCase(java.util.Locale.ROOT),
            i.check(),
            i.expected(),
            i.actual(),
            i.detail());
      }
      if (clean) {
        out.println(
            (items.isEmpty() ? "preflight ok: " : "preflight ok with warnings: ")
                + common.endpoint()
                + " is deployed as configured");
        out.println(
            "next: tts-bench qmax --model "
                + common.model
                + (common.stateDir == null ? "" : " --state-dir " + common.stateDir));
      } else {
        out.println("drift found: fix the errors above before measuring");
      }
    }
    return clean ? 0 : 1;
  }
}
