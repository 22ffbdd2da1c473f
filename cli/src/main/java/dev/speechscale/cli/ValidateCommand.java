package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.chain.Flags;
import dev.speechscale.chain.ValidateRequest;
import dev.speechscale.chain.ValidateRun;
import dev.speechscale.platform.NanoClock;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tts-bench validate}: the deployed policy is the plan, and (--live) behaves like it. Option
 * help: {@code flags.properties}.
 */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Check the deployed policy against the plan: target value, scale-in threshold, both"
          + " cooldowns, min/max, queue depth, alarms. --live adds load checks (rejections only"
          + " above Q_max, the SLO at 0.8x the scaled fleet's threshold load, a k x open-loop surge,"
          + " a scale-out within T) and restores what it changed.",
      "Exit 0 ok or warn, 1 on any fail."
    })
final class ValidateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ChainOptions common;

  @Mixin PlanBesideConfigOption plan;

  @Option(names = Flags.LIVE)
  boolean live;

  @Option(names = Flags.PHASE, defaultValue = "15s", paramLabel = "DURATION")
  Duration phase;

  @Mixin TransportOption transport;

  @Mixin TextsOption texts;

  @Mixin OutputOption output;

  @Mixin JsonOption json;

  @Override
  public Integer call() {
    common.checkTransport(transport.given);
    ValidateRequest request = request();
    ValidateRun.Options options = request.options(ArtifactCodec.readPlan(request.plan()));
    ValidateArtifact v =
        common.onPlatform(
            (platform, progress) -> ValidateRun.run(platform, options, NanoClock.SYSTEM, progress));
    if (output.file != null) {
      ArtifactCodec.write(output.file, v);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (!json.printed(out, v)) {
      for (ValidateArtifact.Check c : v.checks()) {
        out.printf(
            Locale.ROOT,
            "%-4s %-28s expected %s, got %s: %s%n",
            c.result().label().toUpperCase(Locale.ROOT),
            c.name(),
            c.expected(),
            c.actual(),
            c.detail());
      }
      out.println("verdict: " + v.verdict().label());
    }
    return v.verdict().failed() ? 1 : 0;
  }

  /** The validation the options ask for: the plan beside the config unless given. */
  ValidateRequest request() {
    return new ValidateRequest(
        common.target(),
        plan.orBeside(common),
        live,
        new ValidateRequest.Load(common.transport(transport.given), phase, texts.file));
  }
}
