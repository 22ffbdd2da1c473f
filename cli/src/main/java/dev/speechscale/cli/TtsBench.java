package dev.speechscale.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code tts-bench}: the measurement chain. */
@Command(
    name = "tts-bench",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Measure a concurrency-bound real-time endpoint and derive its autoscaling policy.",
      "Chain: drift -> qmax -> ttotal -> plan -> validate (thaw after a hard kill);",
      "simulate replays traffic against the plan and its rivals; replay checks the simulator"
          + " against the live fleet; export writes artifacts as CSV and .hgrm."
    },
    subcommands = {
      DriftCommand.class,
      QmaxCommand.class,
      TtotalCommand.class,
      PlanCommand.class,
      SimulateCommand.class,
      SearchCommand.class,
      ValidateCommand.class,
      ReplayCommand.class,
      ExportCommand.class,
      ThawCommand.class,
      QuickstartCommand.class
    })
public final class TtsBench extends ToolRoot {
  /** Runs the command line with injected output streams; returns the exit code (0, 1 or 2). */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return Cli.run(new TtsBench(), args, out, err);
  }

  public static void main(String[] args) {
    Cli.main(new TtsBench(), args);
  }
}
