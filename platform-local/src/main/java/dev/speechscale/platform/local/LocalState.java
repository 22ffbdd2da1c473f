package dev.speechscale.platform.local;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.platform.PlatformException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

/**
 * The control state of local endpoints on disk, so a supervisor that dies is detected by the next
 * command and its orphaned instance processes can be found.
 *
 * <pre>
 * &lt;root&gt;/&lt;endpoint&gt;/endpoint.json   what was deployed, the supervisor's pid and ports (0600)
 * &lt;root&gt;/&lt;endpoint&gt;/control.secret  the control API's secret (0600), see ControlServer
 * &lt;root&gt;/&lt;endpoint&gt;/status.json     the supervisor's last published status, each second (0600)
 * &lt;root&gt;/&lt;endpoint&gt;/instances/*.log one log stream per instance (JSON lines: at, message)
 * &lt;root&gt;/&lt;endpoint&gt;/supervisor.log the supervisor's own output
 * </pre>
 *
 * <p>The root is {@code --state-dir}, else {@code $SPEECHSCALE_STATE_DIR}, else {@code
 * ~/.speechscale/local}.
 */
public final class LocalState {
  private LocalState() {}

  /** The default root. */
  static Path defaultRoot() {
    String env = System.getenv("SPEECHSCALE_STATE_DIR");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    return Path.of(System.getProperty("user.home"), ".speechscale", "local");
  }

  /**
   * What deploy wrote: everything the supervisor needs to run the endpoint, and how to reach it.
   *
   * @param endpoint {@code speech-<model>}
   * @param config the effective endpoint config
   * @param configFile where it came from
   * @param scaling the gate's decision: attached or not, and why
   * @param fingerprintDigest the deployment's image digest (server build + engine settings)
   * @param serverCommand the command that starts one instance, before per-instance flags
   * @param supervisorPid the supervisor's pid once started, else 0
   * @param supervisorStartedAt its process start time, to tell it from a recycled pid
   * @param routerPort where the router listens once started, else 0
   * @param controlPort where the control API listens once started, else 0
   * @param deployedAt when deploy began
   */
  public record EndpointRecord(
      String endpoint,
      EndpointConfig config,
      String configFile,
      ScalingRecord scaling,
      @Nullable String fingerprintDigest,
      List<String> serverCommand,
      long supervisorPid,
      @Nullable Instant supervisorStartedAt,
      int routerPort,
      int controlPort,
      Instant deployedAt) {}

  /**
   * The gate's decision as recorded.
   *
   * @param attached whether policies are attached
   * @param reason why (or why not)
   * @param planFile the plan behind it, or {@code null}
   */
  public record ScalingRecord(boolean attached, String reason, @Nullable String planFile) {}

  /**
   * One instance as the supervisor last published it.
   *
   * @param id {@code i-local-N}
   * @param pid its process id
   * @param startedAt its process start time
   * @param port where it listens (0 until known)
   * @param phase starting, in_service, draining, stopped or failed
   * @param inFlight requests it holds now
   * @param requestedAt when it was asked for
   * @param firstLogAt when its first log line appeared
   * @param inServiceAt when it joined the router
   * @param logFile its log stream
   */
  public record InstanceRecord(
      String id,
      long pid,
      @Nullable Instant startedAt,
      int port,
      String phase,
      int inFlight,
      Instant requestedAt,
      @Nullable Instant firstLogAt,
      @Nullable Instant inServiceAt,
      String logFile,
      dev.speechscale.platform.@Nullable CpuLimit cpuLimit) {}

  static Path endpointDir(Path root, String endpoint) {
    return root.resolve(endpoint);
  }

  static Path endpointFile(Path dir) {
    return dir.resolve("endpoint.json");
  }

  static Path statusFile(Path dir) {
    return dir.resolve("status.json");
  }

  static Path instancesDir(Path dir) {
    return dir.resolve("instances");
  }

  static Path secretFile(Path dir) {
    return dir.resolve("control.secret");
  }

  private static final java.util.Set<java.nio.file.attribute.PosixFilePermission> OWNER_ONLY =
      java.nio.file.attribute.PosixFilePermissions.fromString("rw-------");

  /**
   * Writes a state file atomically, readable by its owner only (0600): it names the control port
   * and the supervisor's pid, and sits beside the control secret.
   */
  static void write(Path file, Object record) {
    writeOwnerOnly(file, ArtifactCodec.toJson(record));
  }

  /** Atomic write of text, 0600 from its first byte (the temp file is created owner-only). */
  static void writeOwnerOnly(Path file, String text) {
    Path dir = file.toAbsolutePath().getParent();
    try {
      Files.createDirectories(dir);
      Path tmp =
          Files.createTempFile(
              dir,
              "." + file.getFileName(),
              ".tmp",
              java.nio.file.attribute.PosixFilePermissions.asFileAttribute(OWNER_ONLY));
      try {
        Files.writeString(tmp, text);
        Files.move(
            tmp,
            file,
            java.nio.file.StandardCopyOption.ATOMIC_MOVE,
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  static <T> Optional<T> read(Path file, Class<T> type) {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(ArtifactCodec.mapper().readValue(Files.readString(file), type));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (JacksonException e) {
      throw new PlatformException(
          new PlatformException.Reason.Unavailable(
              file
                  + " is damaged ("
                  + e.getOriginalMessage()
                  + "); run `speech-infra destroy` to"
                  + " clean up the endpoint's state"));
    }
  }

  /**
   * Whether the process with this pid is the one that started at {@code startedAt}: the same start
   * second, or, when the start times disagree, a process whose command line is one of ours ({@code
   * dev.speechscale.*}). The fallback is there because a start time is the kernel's boot time plus
   * ticks since boot, and on a virtual machine whose wall clock is stepped (seen here under heavy
   * load: a supervisor recorded at 18:19:4x read back as 18:20:05) the same process reads back tens
   * of seconds off; without it, destroy left a live supervisor and its instance running.
   */
  static boolean alive(long pid, @Nullable Instant startedAt) {
    if (pid <= 0) {
      return false;
    }
    return ProcessHandle.of(pid)
        .filter(ProcessHandle::isAlive)
        .map(h ->
            startedAt == null
                || h.info().startInstant().map(s -> sameSecond(s, startedAt)).orElse(true)
                || ours(pid))
        .orElse(false);
  }

  /** Whether {@code /proc/PID/cmdline} names a SpeechScale main class (false off Linux). */
  static boolean ours(long pid) {
    try {
      byte[] cmdline = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
      return new String(cmdline, java.nio.charset.StandardCharsets.UTF_8)
          .contains("dev.speechscale.");
    } catch (IOException | SecurityException e) {
      return false;
    }
  }

  private static boolean sameSecond(Instant a, Instant b) {
    return Math.abs(a.toEpochMilli() - b.toEpochMilli()) < 1500;
  }

  /** The start time of a live process, if known. */
  static @Nullable Instant startOf(ProcessHandle h) {
    return h.info().startInstant().orElse(null);
  }
}
