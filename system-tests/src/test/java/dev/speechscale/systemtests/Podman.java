package dev.speechscale.systemtests;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * podman as the system tests drive it: the runc runtime (crun fails on hybrid cgroup hosts) and
 * ulimits at or below the sandbox's, the same settings {@code bin/image run} uses.
 */
final class Podman {
  static final List<String> RUN_LIMITS =
      List.of("--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024");

  private Podman() {}

  /** What a finished command printed. */
  record Result(int exitCode, String out) {}

  /** Why the container tests cannot run here, or empty when podman is (or can be) installed. */
  static Optional<String> unavailableReason() {
    if (onPath("podman")) {
      return Optional.empty();
    }
    boolean root = "root".equals(System.getProperty("user.name"));
    if (root && onPath("apt-get")) {
      return Optional.empty(); // bin/image installs podman, runc and debootstrap
    }
    return Optional.of(
        "no container runtime: podman is not installed and this user cannot install it"
            + " (run as root on Debian, or: sudo apt-get install -y podman runc debootstrap)");
  }

  static boolean onPath(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isBlank() && Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }

  /** Runs {@code podman --runtime runc ARGS} and waits at most {@code bound}. */
  static Result podman(Duration bound, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("podman", "--runtime", "runc"));
    cmd.addAll(List.of(args));
    return run(cmd, null, bound);
  }

  static Result run(List<String> cmd, Path dir, Duration bound)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("podman", ".out");
    try {
      ProcessBuilder pb =
          new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
      if (dir != null) {
        pb.directory(dir.toFile());
      }
      Process p = pb.start();
      if (!p.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor();
        throw new IllegalStateException(
            String.join(" ", cmd)
                + " did not finish within "
                + bound
                + ":\n"
                + Files.readString(out, StandardCharsets.UTF_8));
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
    }
  }

  static final String EOF = "\u0000eof";

  /** A thread that reads a process's output into a queue, ending with {@link #EOF}. */
  static BlockingQueue<String> drain(Process p) {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread.ofPlatform()
        .daemon()
        .start(() -> {
          try (BufferedReader r =
              new BufferedReader(
                  new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String l;
            while ((l = r.readLine()) != null) {
              lines.add(l);
            }
          } catch (IOException e) {
            lines.add("(output read failed: " + e.getMessage() + ")");
          } finally {
            lines.add(EOF);
          }
        });
    return lines;
  }
}
