package dev.speechscale.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The speech-server's entry point as a child process, on this test run's class path. */
final class MainProcess {
  private MainProcess() {}

  /** A builder for {@code java … Main serve <serveArgs>}, stderr merged into stdout. */
  static ProcessBuilder serve(String... serveArgs) {
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command =
        new ArrayList<>(
            List.of(
                java.toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                classpath,
                Main.class.getName(),
                "serve"));
    command.addAll(List.of(serveArgs));
    return new ProcessBuilder(command).redirectErrorStream(true);
  }
}
