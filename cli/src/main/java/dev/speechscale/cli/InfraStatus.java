package dev.speechscale.cli;

import dev.speechscale.platform.local.LocalDeployer;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code speech-infra status}: instances, stages, counts, policies, alarms, suspended flags. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "Show speech-<model>: instances and their stages, desired/current counts, policies, alarms"
          + " and suspended flags, or why no scaling is attached.",
      "A supervisor that was killed is reported (exit 1) and its orphaned instances are stopped."
    })
final class InfraStatus implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin InfraOptions common;

  @Override
  public Integer call() {
    InfraCommands.requirePlatform(spec, common);
    if (common.aws()) {
      return InfraAws.status(spec, common);
    }
    LocalDeployer.Report r =
        new LocalDeployer(common.root(), line -> spec.commandLine().getErr().println(line))
            .status(common.endpoint());
    PrintWriter out = spec.commandLine().getOut();
    if (!r.supervisorAlive()) {
      PrintWriter err = spec.commandLine().getErr();
      err.println(
          "error: the supervisor of "
              + r.endpoint()
              + " (pid "
              + r.record().supervisorPid()
              + ") is not running (killed or crashed)");
      err.println(
          r.orphansStopped().isEmpty()
              ? "no orphaned instance processes were left"
              : "stopped "
                  + r.orphansStopped().size()
                  + " orphaned instance process(es): "
                  + r.orphansStopped());
      err.println(
          "deploy again with `speech-infra deploy`, or clean up with `speech-infra"
              + " destroy --model "
              + common.model
              + "`");
      if (r.status() != null) {
        out.println("last published status:");
        InfraCommands.printStatus(out, r.status(), r.record());
      }
      return 1;
    }
    InfraCommands.printStatus(out, r.status(), r.record());
    return 0;
  }
}
