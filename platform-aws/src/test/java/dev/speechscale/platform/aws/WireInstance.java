package dev.speechscale.platform.aws;

import dev.speechscale.platform.StageMarker;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * One instance of a {@link WireAws} endpoint: a real speech-server process (the server module's
 * {@code Main}, from this test's classpath) started with the model's container environment, as
 * SageMaker starts the image on an ML instance. Every stdout line goes to the instance's log stream
 * as it arrives (a CloudWatch Logs event stamped with its arrival); the instance is in service once
 * the server printed its {@code ready} stage marker, which it prints after its {@code /ping} (the
 * health check SageMaker waits for) turned 200.
 */
final class WireInstance implements AutoCloseable {
  private static final String LISTENING = "speech-server listening on ";
  private static final String READY = StageMarker.STAGES.getLast();

  private final String id;
  private final Process process;
  private final Clock clock;
  private final BiConsumer<Instant, String> log;
  private final CompletableFuture<URI> inService = new CompletableFuture<>();
  private volatile URI uri;

  private WireInstance(String id, Process process, Clock clock, BiConsumer<Instant, String> log) {
    this.id = id;
    this.process = process;
    this.clock = clock;
    this.log = log;
  }

  /**
   * Starts one instance.
   *
   * @param id the instance id ({@code i-0...})
   * @param environment the model's container environment
   * @param clock stamps the log events
   * @param log receives each stdout line with its arrival time
   */
  static WireInstance launch(
      String id, Map<String, String> environment, Clock clock, BiConsumer<Instant, String> log) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "--enable-native-access=ALL-UNNAMED",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Xss512k",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.speechscale.server.Main",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                "0"));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().putAll(environment);
    pb.environment()
        .put(
            "CONTAINER_START_EPOCH",
            String.format(Locale.ROOT, "%.3f", clock.instant().toEpochMilli() / 1000.0));
    try {
      Process p = pb.start();
      p.getOutputStream().close();
      WireInstance instance = new WireInstance(id, p, clock, log);
      Thread.ofPlatform().daemon().name("wire-" + id).start(instance::capture);
      // A test JVM that dies without closing the fake (killed by a fork timeout) takes it along.
      Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly, "wire-stop-" + id));
      return instance;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start speech-server for instance " + id, e);
    }
  }

  String id() {
    return id;
  }

  /** Completes with the instance's address once it is in service. */
  CompletableFuture<URI> inService() {
    return inService;
  }

  /** The instance's address, or null before it listens. */
  URI uri() {
    return uri;
  }

  private void capture() {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        log.accept(clock.instant(), line);
        if (line.startsWith(LISTENING)) {
          uri = URI.create("http://" + line.substring(LISTENING.length()).strip());
        }
        StageMarker.parse(line)
            .filter(m -> m.stage().equals(READY))
            .ifPresent(m -> inService.complete(uri));
      }
    } catch (IOException e) {
      inService.completeExceptionally(e);
    }
    inService.completeExceptionally(
        new IllegalStateException(
            "speech-server instance " + id + " exited (" + exitCode() + ") before it was ready"));
  }

  private String exitCode() {
    try {
      return process.waitFor(5, TimeUnit.SECONDS) ? "exit " + process.exitValue() : "running";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  /** Stops the instance: SIGTERM (the server drains), forcibly after 10 s. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
