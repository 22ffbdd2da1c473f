package dev.speechscale.platform.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Holds a local instance to its instance type's CPU share ({@code local.500mcpu} is half a CPU)
 * with a Linux CFS quota, so instances and the platform's own router, supervisor and clients do not
 * silently share cores: on a small machine a second instance is then real, separate capacity.
 *
 * <p>Uses the cgroup v2 {@code cpu.max} file when the unified hierarchy has the cpu controller,
 * else the cgroup v1 {@code cpu} controller ({@code cpu.cfs_quota_us}). Needs root; without it the
 * quota is not enforced and {@link #apply} says so.
 */
final class CpuQuota {
  /** A 20 ms period keeps the throttling jitter well under typical TTFAB SLOs. */
  static final int PERIOD_US = 20_000;

  private static final Path V1 = Path.of("/sys/fs/cgroup/cpu");
  private static final Path V2 = Path.of("/sys/fs/cgroup");

  private CpuQuota() {}

  /**
   * Puts process {@code pid} into its own group capped at {@code cpus} CPUs.
   *
   * @return the group's directory, or empty (with the reason in {@code why}) when not enforced
   */
  static Optional<Path> apply(long pid, double cpus, String name, StringBuilder why) {
    long quota = Math.max(1000, Math.round(cpus * PERIOD_US));
    try {
      if (Files.isWritable(V2.resolve("cgroup.subtree_control"))
          && Files.readString(V2.resolve("cgroup.controllers")).contains("cpu")) {
        Path dir = V2.resolve("speechscale").resolve(name);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("cpu.max"), quota + " " + PERIOD_US);
        Files.writeString(dir.resolve("cgroup.procs"), Long.toString(pid));
        return Optional.of(dir);
      }
      if (Files.isDirectory(V1) && Files.isWritable(V1)) {
        Path dir = V1.resolve("speechscale").resolve(name);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("cpu.cfs_period_us"), Integer.toString(PERIOD_US));
        Files.writeString(dir.resolve("cpu.cfs_quota_us"), Long.toString(quota));
        Files.writeString(dir.resolve("cgroup.procs"), Long.toString(pid));
        return Optional.of(dir);
      }
      why.append("no writable cpu cgroup (run as root on Linux to enforce instance CPU shares)");
    } catch (IOException | RuntimeException e) {
      why.append(String.format(Locale.ROOT, "cgroup cpu quota failed: %s", e.getMessage()));
    }
    return Optional.empty();
  }

  /** Removes a group whose processes have exited; quiet when it is already gone. */
  static void release(Path dir) {
    try {
      Files.deleteIfExists(dir);
    } catch (IOException stillBusy) {
      // a group with a live process cannot be removed; the next destroy retries
    }
  }
}
