package dev.speechscale.platform.local;

import dev.speechscale.artifacts.ArtifactCodec;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * One speech-server process: started with the deployment's command and environment, its stdout
 * captured line by line into a log stream (JSON lines with the time each line arrived, like a
 * CloudWatch log stream), its port learnt from the listening line, and stopped gracefully (SIGTERM,
 * the server drains) or, past a bound, forcibly.
 */
final class InstanceProcess {
  /** The stdout line prefix speech-server prints once bound. */
  static final String LISTENING = "speech-server listening on ";

  enum Phase {
    STARTING,
    IN_SERVICE,
    DRAINING,
    STOPPED,
    FAILED
  }

  private final String id;
  private final Process process;
  private final Path logFile;
  private final Instant requestedAt;
  private final Clock clock;
  private final CompletableFuture<Integer> port = new CompletableFuture<>();
  private volatile @Nullable Instant firstLogAt;
  private volatile @Nullable Instant inServiceAt;
  private volatile Phase phase = Phase.STARTING;
  private volatile @Nullable Backend backend;
  private volatile @Nullable Path cpuGroup;
  private volatile double cpuRequested;
  private volatile String cpuWhyNot = "";
  private final List<String> tail = new ArrayList<>();

  private InstanceProcess(
      String id, Process process, Path logFile, Instant requestedAt, Clock clock) {
    this.id = id;
    this.process = process;
    this.logFile = logFile;
    this.requestedAt = requestedAt;
    this.clock = clock;
  }

  /**
   * Starts an instance.
   *
   * @param id instance id
   * @param command the full command line
   * @param env extra environment
   * @param logFile where its log stream goes
   * @param clock wall clock for log timestamps
   */
  static InstanceProcess launch(
      String id, List<String> command, Map<String, String> env, Path logFile, Clock clock)
      throws IOException {
    Instant requested = clock.instant();
    Files.createDirectories(logFile.getParent());
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().putAll(env);
    pb.environment()
        .put(
            "CONTAINER_START_EPOCH",
            String.format(Locale.ROOT, "%.3f", requested.toEpochMilli() / 1000.0));
    // The log stream exists from the moment the instance is asked for, as a CloudWatch log stream
    // does: its first event is the platform's own launch line, so instance_logging measures the
    // platform, and the JVM's start shows as container_started -> framework_init.
    Files.writeString(
        logFile,
        ArtifactCodec.toJsonLine(
                new LogEntry(
                    requested,
                    "[platform] instance "
                        + id
                        + " starting: "
                        + String.join(" ", command.subList(0, Math.min(3, command.size())))
                        + " ..."))
            + "\n",
        StandardCharsets.UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    Process p = pb.start();
    p.getOutputStream().close();
    InstanceProcess instance = new InstanceProcess(id, p, logFile, requested, clock);
    instance.firstLogAt = requested;
    // A platform thread, not a virtual one: a pipe read blocks its carrier, and once the
    // scheduler's idle spare carriers time out (30 s) silent instances would hold every carrier and
    // no virtual thread (the control API's handlers included) would run again.
    Thread.ofPlatform().daemon().name("log-" + id).start(instance::capture);
    return instance;
  }

  /** Copies stdout into the log stream, noting the first line and the listening port. */
  private void capture() {
    try (BufferedReader in =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        BufferedWriter out =
            Files.newBufferedWriter(
                logFile,
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
      String line;
      while ((line = in.readLine()) != null) {
        Instant at = clock.instant();
        if (firstLogAt == null) {
          firstLogAt = at;
        }
        out.write(ArtifactCodec.toJsonLine(new LogEntry(at, line)));
        out.newLine();
        out.flush();
        synchronized (tail) {
          tail.add(line);
          if (tail.size() > 40) {
            tail.removeFirst();
          }
        }
        if (line.startsWith(LISTENING)) {
          String hostPort = line.substring(LISTENING.length()).strip();
          port.complete(Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1)));
        }
      }
    } catch (IOException | NumberFormatException e) {
      port.completeExceptionally(e);
    } finally {
      port.completeExceptionally(
          new IOException("instance " + id + " exited before it was listening"));
    }
  }

  /**
   * One log line.
   *
   * @param at when it arrived
   * @param message the line
   */
  record LogEntry(Instant at, String message) {}

  /** Waits for the listening line. */
  int awaitPort(Duration timeout) throws Exception {
    return port.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The port once known, else 0. */
  int port() {
    return port.isDone() && !port.isCompletedExceptionally() ? port.join() : 0;
  }

  String id() {
    return id;
  }

  long pid() {
    return process.pid();
  }

  Instant processStartedAt() {
    return process.toHandle().info().startInstant().orElse(requestedAt);
  }

  boolean alive() {
    return process.isAlive();
  }

  Phase phase() {
    return phase;
  }

  void phase(Phase p) {
    this.phase = p;
    if (p == Phase.IN_SERVICE && inServiceAt == null) {
      inServiceAt = clock.instant();
    }
  }

  @Nullable Backend backend() {
    return backend;
  }

  void backend(Backend b) {
    this.backend = b;
  }

  Instant requestedAt() {
    return requestedAt;
  }

  @Nullable Instant firstLogAt() {
    return firstLogAt;
  }

  @Nullable Instant inServiceAt() {
    return inServiceAt;
  }

  Path logFile() {
    return logFile;
  }

  /** The last lines it printed, for error messages. */
  List<String> tail() {
    synchronized (tail) {
      return List.copyOf(tail);
    }
  }

  void cpuGroup(Path dir) {
    this.cpuGroup = dir;
  }

  /** The CPUs its instance type asks for, and why a quota was not applied ("" when it was). */
  void cpuRequested(double cpus, String whyNot) {
    this.cpuRequested = cpus;
    this.cpuWhyNot = whyNot;
  }

  /** The CPU limit it runs under now, read back from the cgroup and the affinity mask. */
  dev.speechscale.platform.CpuLimit cpuLimit() {
    return CpuQuota.readBack(pid(), cpuRequested, cpuWhyNot);
  }

  /** SIGTERM (the server drains in-flight requests), then SIGKILL past {@code bound}. */
  void stop(Duration bound) {
    try {
      stopProcess(bound);
    } finally {
      if (cpuGroup != null && !process.isAlive()) {
        CpuQuota.release(cpuGroup);
      }
    }
  }

  private void stopProcess(Duration bound) {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  LocalState.InstanceRecord record() {
    Backend b = backend;
    return new LocalState.InstanceRecord(
        id,
        pid(),
        processStartedAt(),
        port(),
        phase.name().toLowerCase(Locale.ROOT),
        b == null ? 0 : b.inFlight(),
        requestedAt,
        firstLogAt,
        inServiceAt,
        logFile.toString(),
        process.isAlive() && cpuRequested > 0 ? cpuLimit() : null);
  }
}
