package dev.speechscale.platform.local;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.platform.NanoClock;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The JDK's ahead-of-time cache (JEP 483/514) for local instances: cold start is capacity, since
 * every second from process start to {@code /ping} 200 is a second of T_total. One training run per
 * build, engine and JDK (the server started with {@code -XX:AOTCacheOutput}, warmed as it always
 * warms, stopped with SIGTERM, which writes the cache) leaves a file every later instance of that
 * build starts from with {@code -XX:AOTCache}: classes arrive loaded and linked
 * (measurements/cold-start.md has the stage table before and after).
 *
 * <p>The cache is an optimisation, never a condition: a classpath with classes directories (the JDK
 * archives jar classes only), a failed training run or a stale file leaves instances starting as
 * before, and the reason is reported. A file is keyed by the JDK binary, every classpath jar's
 * path, size and modification time, and the engine, so a rebuild trains anew and the JVM's own
 * validation never meets a mismatched file.
 */
final class AotCache {
  /** Bounds the training run; a server that is not ready by then is not trained. */
  static final Duration TRAINING_BOUND = Duration.ofMinutes(3);

  private AotCache() {}

  /** Where caches live: {@code $XDG_CACHE_HOME/speechscale/aot}, else {@code ~/.cache/…}. */
  static Path defaultDirectory() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("speechscale").resolve("aot");
  }

  /**
   * Why {@code classpath} cannot be cached, or empty when it can: every entry must be a jar file.
   */
  static Optional<String> unsupported(String classpath) {
    for (String entry : classpath.split(File.pathSeparator)) {
      if (entry.isBlank()) {
        continue;
      }
      Path p = Path.of(entry);
      if (entry.endsWith("*")) {
        return Optional.of(
            "the classpath entry "
                + entry
                + " is a wildcard; the AOT cache needs the jars listed one by one");
      }
      if (Files.isDirectory(p)) {
        return Optional.of(
            "the classpath entry "
                + entry
                + " is a classes directory; the JDK's AOT cache holds classes from jars only"
                + " (bin/tts-bench runs instances from jars)");
      }
      if (!Files.isRegularFile(p)) {
        return Optional.of("the classpath entry " + entry + " does not exist");
      }
    }
    return Optional.empty();
  }

  /**
   * The cache file for this JDK, classpath and engine: {@code server-<engine>-<sha256>.aot}, from
   * the JDK binary and every jar's path, size and modification time.
   */
  static Path file(Path directory, String javaBinary, String classpath, String engine) {
    MessageDigest sha = sha256();
    List<String> parts = new ArrayList<>();
    parts.add(stamp(Path.of(javaBinary)));
    parts.add(System.getProperty("java.runtime.version", ""));
    for (String entry : classpath.split(File.pathSeparator)) {
      if (!entry.isBlank()) {
        parts.add(stamp(Path.of(entry)));
      }
    }
    parts.add("engine=" + engine);
    sha.update(String.join("\n", parts).getBytes(StandardCharsets.UTF_8));
    String hex = HexFormat.of().formatHex(sha.digest()).substring(0, 16);
    return directory.resolve("server-" + engine + "-" + hex + ".aot");
  }

  /**
   * The cache for {@code config}'s instances, trained now when it is missing. Never throws: a cache
   * that cannot be had is empty, with the reason given to {@code progress}.
   *
   * @param command the instance command from {@link ServerBuild#command}, java binary first
   */
  static Optional<Path> ensure(
      Path directory,
      String javaBinary,
      String classpath,
      List<String> command,
      EndpointConfig config,
      Consumer<String> progress) {
    Optional<String> why = unsupported(classpath);
    if (why.isPresent()) {
      progress.accept("instances start without an AOT cache: " + why.get());
      return Optional.empty();
    }
    Path target = file(directory, javaBinary, classpath, config.engine());
    if (Files.isRegularFile(target)) {
      return Optional.of(target);
    }
    progress.accept(
        "training the AOT cache for "
            + config.engine()
            + " instances of this build (once per build; later instances start faster)");
    try {
      Files.createDirectories(directory);
      Path partial =
          Files.createTempFile(directory, target.getFileName().toString(), ".partial.aot");
      Files.delete(partial); // the JVM writes it; it must not exist
      Optional<String> failed = train(command, partial, config);
      if (failed.isPresent()) {
        Files.deleteIfExists(partial);
        Files.deleteIfExists(Path.of(partial + ".config"));
        progress.accept("instances start without an AOT cache: " + failed.get());
        return Optional.empty();
      }
      Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
      return Optional.of(target);
    } catch (IOException | UncheckedIOException e) {
      progress.accept("instances start without an AOT cache: " + e.getMessage());
      return Optional.empty();
    }
  }

  /** The instance command with the cache in use: {@code -XX:AOTCache} right after the binary. */
  static List<String> using(List<String> command, Path cache) {
    List<String> out = new ArrayList<>(command);
    out.add(1, "-XX:AOTCache=" + cache);
    return out;
  }

  /**
   * Runs the server once with {@code -XX:AOTCacheOutput}; empty when the cache was written. Its
   * output goes to a file beside the cache, not a pipe: {@link Process#destroy()} closes the pipes
   * before the JVM has written the cache, and a JVM whose stdout is gone writes none, so the stop
   * is a plain SIGTERM through {@link ProcessHandle#destroy()}.
   */
  private static Optional<String> train(List<String> command, Path output, EndpointConfig config)
      throws IOException {
    List<String> cmd = new ArrayList<>(command);
    cmd.add(1, "-XX:AOTCacheOutput=" + output);
    Path log = Path.of(output + ".log");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Map<String, String> env = pb.environment();
    env.putAll(config.engineEnvironment());
    env.putAll(config.containerEnv());
    Process p = pb.start();
    long deadline = NanoClock.SYSTEM.nanoTime() + TRAINING_BOUND.toNanos();
    try {
      int port = awaitPort(p, log, deadline);
      if (port < 0) {
        return Optional.of("the training run did not start listening: " + last(log));
      }
      if (!awaitPing(port, deadline)) {
        return Optional.of("the training run never answered /ping 200: " + last(log));
      }
      p.toHandle().destroy(); // SIGTERM: the JVM exits normally and assembles the cache
      long left = Math.max(1, deadline - NanoClock.SYSTEM.nanoTime());
      if (!p.waitFor(left, TimeUnit.NANOSECONDS)) {
        return Optional.of("the training run did not exit within " + TRAINING_BOUND);
      }
      if (!Files.isRegularFile(output)) {
        return Optional.of("the JVM wrote no cache: " + last(log));
      }
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted");
    } finally {
      p.destroyForcibly();
      Files.deleteIfExists(log);
    }
  }

  private static int awaitPort(Process p, Path log, long deadlineNanos)
      throws IOException, InterruptedException {
    while (NanoClock.SYSTEM.nanoTime() < deadlineNanos && p.isAlive()) {
      String out = Files.readString(log, StandardCharsets.UTF_8);
      int at = out.indexOf(InstanceProcess.LISTENING);
      int eol = at < 0 ? -1 : out.indexOf('\n', at);
      if (eol > 0) {
        String hostPort = out.substring(at + InstanceProcess.LISTENING.length(), eol).strip();
        return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
      }
      Thread.sleep(50);
    }
    return -1;
  }

  private static boolean awaitPing(int port, long deadlineNanos) throws InterruptedException {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpRequest ping =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ping"))
              .timeout(Duration.ofSeconds(5))
              .build();
      while (NanoClock.SYSTEM.nanoTime() < deadlineNanos) {
        try {
          if (http.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            return true;
          }
        } catch (IOException notYet) {
          // not listening yet, or refused: try again
        }
        Thread.sleep(50);
      }
      return false;
    }
  }

  /** The end of the training log, for a reason line. */
  private static String last(Path log) {
    try {
      String s =
          Files.readString(log, StandardCharsets.UTF_8)
              .lines()
              .filter(l -> !l.contains("[warning][aot] Skipping"))
              .reduce("", (a, b) -> a + "\n" + b)
              .strip();
      return s.isEmpty() ? "(no output)" : s.substring(Math.max(0, s.length() - 600));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private static String stamp(Path p) {
    try {
      return p + "|" + Files.size(p) + "|" + Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return p + "|missing";
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
