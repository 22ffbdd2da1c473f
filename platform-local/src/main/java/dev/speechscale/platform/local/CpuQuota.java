package dev.speechscale.platform.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

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
   * The group of one instance of one deployment. Cgroups are machine-wide while endpoint names and
   * instance ids are per state directory: two state directories deploying {@code speech-quickstart}
   * at once (two users, a test beside a run) would otherwise put both {@code i-local-1} processes
   * in one group and split one instance's share between two instances, each silently starved to a
   * fraction of its type (a half-CPU instance at nice 15 beside one at nice 0 gets ~3 % of it). The
   * endpoint's state directory tells them apart.
   *
   * @param endpointDir the endpoint's directory in its state root
   */
  static String groupName(Path endpointDir, String endpoint, String instanceId) {
    try {
      byte[] digest =
          java.security.MessageDigest.getInstance("SHA-256")
              .digest(
                  endpointDir
                      .toAbsolutePath()
                      .normalize()
                      .toString()
                      .getBytes(StandardCharsets.UTF_8));
      return endpoint + "-" + java.util.HexFormat.of().formatHex(digest, 0, 4) + "-" + instanceId;
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }

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

  /**
   * What process {@code pid} is held to, read back from the operating system: the quota of the cpu
   * cgroup it is in now (from {@code /proc/<pid>/cgroup}, so a process that left its group or was
   * never moved shows) and the CPUs its affinity mask allows.
   *
   * @param requestedCpus what the instance type asks for
   * @param why why the quota was not applied at start, or empty
   */
  static dev.speechscale.platform.CpuLimit readBack(long pid, double requestedCpus, String why) {
    Path proc = Path.of("/proc", Long.toString(pid));
    try {
      Integer allowed = allowedCpus(Files.readAllLines(proc.resolve("status")));
      Double quota = quotaCpus(Files.readAllLines(proc.resolve("cgroup")));
      double machine = Runtime.getRuntime().availableProcessors();
      double affinity = allowed == null ? machine : allowed;
      String detail =
          String.format(
              Locale.ROOT,
              "%s; affinity %d of %d CPUs",
              quota == null ? "no cpu quota on its cgroup" : "cfs quota " + quota + " CPU",
              (int) affinity,
              (int) machine);
      if (!why.isEmpty()) {
        detail = why + "; " + detail;
      }
      if (quota != null && quota < affinity) {
        return new dev.speechscale.platform.CpuLimit(
            requestedCpus, quota, allowed == null ? "cfs-quota" : "cfs-quota+affinity", detail);
      }
      return new dev.speechscale.platform.CpuLimit(
          requestedCpus, affinity, affinity >= machine ? "machine" : "affinity", detail);
    } catch (IOException | RuntimeException e) {
      return new dev.speechscale.platform.CpuLimit(
          requestedCpus,
          null,
          "none",
          String.format(Locale.ROOT, "cannot read /proc/%d: %s", pid, e.getMessage()));
    }
  }

  /** The count of {@code Cpus_allowed_list} in {@code /proc/<pid>/status}, e.g. {@code 0-1,3}. */
  static @Nullable Integer allowedCpus(List<String> status) {
    for (String line : status) {
      if (line.startsWith("Cpus_allowed_list:")) {
        int count = 0;
        for (String part : line.substring(line.indexOf(':') + 1).trim().split(",")) {
          String[] range = part.split("-");
          count +=
              range.length == 1
                  ? 1
                  : Integer.parseInt(range[1].trim()) - Integer.parseInt(range[0].trim()) + 1;
        }
        return count;
      }
    }
    return null;
  }

  /**
   * The quota in CPUs of the cpu cgroup named in {@code /proc/<pid>/cgroup} lines ({@code
   * 1:cpu:/speechscale/x} on v1, {@code 0::/speechscale/x} on v2), or {@code null} when it has
   * none.
   */
  static @Nullable Double quotaCpus(List<String> cgroupLines) throws IOException {
    for (String line : cgroupLines) {
      String[] f = line.split(":", 3);
      if (f.length < 3) {
        continue;
      }
      boolean v1 = List.of(f[1].split(",")).contains("cpu");
      if (v1 && Files.isDirectory(V1)) {
        Path dir = V1.resolve(f[2].substring(1));
        return quota(
            Files.readString(dir.resolve("cpu.cfs_quota_us")).trim(),
            Files.readString(dir.resolve("cpu.cfs_period_us")).trim());
      }
    }
    for (String line : cgroupLines) {
      String[] f = line.split(":", 3);
      if (f.length == 3 && f[0].equals("0") && f[1].isEmpty()) {
        Path max = V2.resolve(f[2].substring(1)).resolve("cpu.max");
        if (Files.isReadable(max)) {
          String[] qp = Files.readString(max).trim().split("\\s+");
          return quota(qp[0], qp[1]);
        }
      }
    }
    return null;
  }

  private static @Nullable Double quota(String quotaUs, String periodUs) {
    if (quotaUs.equals("-1") || quotaUs.equals("max")) {
      return null;
    }
    return Long.parseLong(quotaUs) / (double) Long.parseLong(periodUs);
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
