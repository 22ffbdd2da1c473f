package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.DriftArtifact;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.chain.Drift;
import dev.speechscale.chain.Flags;
import dev.speechscale.platform.OrphanedScaling;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tts-bench drift}: read-only reconciliation of deployed scaling vs config and plan. Option
 * help: {@code flags.properties}.
 */
@Command(
    name = "drift",
    mixinStandardHelpOptions = true,
    description = {
      "Compare what is deployed (scalable target, policies, scale-in alarm, suspended flags,"
          + " orphans, alarm data) with the endpoint config and the plan. Read-only.",
      "Without --model: every endpoint in the config, one group each, then the orphan scan"
          + " (--orphans: the scan alone): scalable targets, policies and alarms left by"
          + " endpoints that no longer exist, across the account and region (aws) or the state"
          + " directory (local).",
      "Exit 0 clean (or warnings only), 1 on any error or orphan."
    })
final class DriftCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ChainOptions common;

  @Mixin PlanBesideConfigOption plan;

  @Option(names = Flags.ORPHANS)
  boolean orphans;

  @Mixin OutputOption output;

  @Mixin JsonOption json;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (common.model != null) {
      boolean clean;
      try (Platform platform = common.open()) {
        clean = one(platform, out);
        if (orphans) {
          clean &= orphans(platform, out);
        }
      }
      return clean ? 0 : 1;
    }
    for (String given :
        new String[] {
          plan.file == null ? null : Flags.PLAN,
          output.file == null ? null : Flags.OUTPUT,
          json.asked ? Flags.JSON : null
        }) {
      if (given != null) {
        throw Cli.usage(spec, given + " needs --model NAME: it is about one endpoint's drift");
      }
    }
    try (Platform platform = common.open()) {
      return orphans ? (orphans(platform, out) ? 0 : 1) : all(platform, out);
    }
  }

  /** One endpoint, as before: its items, then the verdict and the next command. */
  private boolean one(Platform platform, PrintWriter out) {
    EndpointConfig config = common.endpointConfig();
    Path planPath = plan.orBeside(common);
    DriftArtifact artifact = drift(platform, config, planPath, plan.file != null);
    if (output.file != null) {
      ArtifactCodec.write(output.file, artifact);
    }
    if (!json.printed(out, artifact)) {
      items(out, artifact.items());
      if (artifact.clean()) {
        out.println(
            (artifact.items().isEmpty() ? "preflight ok: " : "preflight ok with warnings: ")
                + common.endpoint()
                + " is deployed as configured");
        out.println(
            "next: tts-bench qmax --model "
                + common.model()
                + (common.where.stateDir == null
                    ? ""
                    : " " + Flags.STATE_DIR + " " + common.where.stateDir));
      } else {
        out.println("drift found: fix the errors above before measuring");
      }
    }
    return artifact.clean();
  }

  /** Every endpoint in the config, one group each, then the orphan scan. */
  private int all(Platform platform, PrintWriter out) {
    Map<String, EndpointConfig> models =
        common
            .config
            .read(
                "drift without --model checks every endpoint in it: pass --config FILE (the"
                    + " file speech-infra deployed from), or --model NAME for one endpoint")
            .models();
    int withErrors = 0;
    for (EndpointConfig config : models.values()) {
      out.println("== " + config.endpointName() + " (" + config.modelName() + ")");
      Path planPath = common.besideConfig("plan-" + config.modelName() + ".json");
      boolean clean;
      try {
        DriftArtifact artifact = drift(platform, config, planPath, false);
        items(out, artifact.items());
        clean = artifact.clean();
        out.println(
            clean
                ? (artifact.items().isEmpty() ? "ok" : "ok with warnings")
                    + ": deployed as configured"
                : "drift found");
      } catch (PlatformException e) {
        boolean absent = e.reason() instanceof PlatformException.Reason.NotFound;
        out.printf(
            Locale.ROOT,
            "%-5s %-20s %s%n",
            absent ? "WARN" : "ERROR",
            "endpoint",
            absent ? "not deployed: nothing to compare (" + e.getMessage() + ")" : e.getMessage());
        clean = absent;
      }
      if (!clean) {
        withErrors++;
      }
    }
    boolean noOrphans = orphans(platform, out);
    out.printf(
        Locale.ROOT,
        "drift: %d endpoint(s) in %s, %d with errors; %s%n",
        models.size(),
        common.config.file,
        withErrors,
        noOrphans ? "no orphaned scaling" : "orphaned scaling found");
    if (withErrors == 0 && noOrphans) {
      out.println("next: tts-bench qmax --model <model> (the one to measure)");
      return 0;
    }
    out.println("fix the errors above before measuring");
    return 1;
  }

  /** The platform-wide scan; true when it found nothing. */
  private static boolean orphans(Platform platform, PrintWriter out) {
    out.println("== orphaned scaling (" + platform.name() + ")");
    List<OrphanedScaling> found = platform.orphanedScaling();
    for (OrphanedScaling o : found) {
      out.printf(
          Locale.ROOT,
          "ERROR %-20s %s of %s: %s%n",
          o.kind().label(),
          o.name(),
          o.endpoint(),
          o.detail());
    }
    if (found.isEmpty()) {
      out.println(
          "none: every scalable target, policy and alarm belongs to an endpoint that exists");
    }
    return found.isEmpty();
  }

  private DriftArtifact drift(
      Platform platform, EndpointConfig config, Path planPath, boolean planGiven) {
    PlanArtifact p = planGiven || Files.exists(planPath) ? ArtifactCodec.readPlan(planPath) : null;
    return Drift.run(
        new Drift.Inputs(platform, config, p, planPath.toString()),
        Cli.commandLine(spec),
        Map.of(
            "model",
            config.modelName(),
            "platform",
            common.where.platform,
            "plan",
            planPath.toString()),
        Clock.systemUTC());
  }

  private static void items(PrintWriter out, List<DriftArtifact.Item> items) {
    for (DriftArtifact.Item i : items) {
      out.printf(
          "%-5s %-20s expected %s, deployed %s: %s%n",
          i.severity().label().toUpperCase(Locale.ROOT),
          i.check(),
          i.expected(),
          i.actual(),
          i.detail());
    }
  }
}
