package dev.speechscale.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A benchmark's server in its own JVM ({@link TrivialHttpServer}, {@link TcpRelay}): the {@code
 * main} of a class on this JVM's classpath, its stderr inherited, which prints {@code listening
 * <port>} as its first line once it serves.
 */
final class ChildJvm {
  private static final String LISTENING = "listening ";

  private ChildJvm() {}

  /** Starts {@code mainClass}'s {@code main} with {@code args} in a new JVM. */
  static Process start(Class<?> mainClass, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(mainClass.getName());
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  /**
   * The port {@code child} says it listens on.
   *
   * @param what names the child in the error when it did not start, e.g. {@code the relay}
   */
  static int port(Process child, String what) throws IOException {
    BufferedReader r =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    String line = r.readLine();
    if (line == null || !line.startsWith(LISTENING)) {
      throw new IOException(what + " did not start: " + line);
    }
    return Integer.parseInt(line.substring(LISTENING.length()).trim());
  }
}
