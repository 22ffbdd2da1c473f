package dev.speechscale.systemtests;

import dev.speechscale.cli.SpeechInfra;
import dev.speechscale.cli.TtsBench;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs the real CLI in-process, as a user would type it, and keeps what it printed. */
record Cli(int exitCode, String out, String err) {

  static Cli ttsBench(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = TtsBench.run(args, new PrintWriter(out), new PrintWriter(err));
    System.err.print(err);
    return new Cli(code, out.toString(), err.toString());
  }

  /**
   * The command that runs {@code tts-bench} in a JVM of its own, on this test's class path (the CLI
   * as built, without the launcher script's build step).
   */
  static List<String> ttsBenchCommand(String... args) {
    List<String> command = new ArrayList<>();
    command.addAll(
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--enable-native-access=ALL-UNNAMED",
            "-cp",
            System.getProperty("java.class.path"),
            "dev.speechscale.cli.TtsBench"));
    command.addAll(List.of(args));
    return command;
  }

  /**
   * Starts {@code tts-bench args} as a process of its own, its output and errors into {@code log}.
   */
  static Process start(Path log, String... args) throws IOException {
    return new ProcessBuilder(ttsBenchCommand(args))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
        .start();
  }

  static Cli speechInfra(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = SpeechInfra.run(args, new PrintWriter(out), new PrintWriter(err));
    System.err.print(err);
    return new Cli(code, out.toString(), err.toString());
  }
}
