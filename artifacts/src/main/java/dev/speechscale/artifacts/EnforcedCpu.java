package dev.speechscale.artifacts;

import dev.speechscale.platform.CpuLimit;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The CPU limit a measurement ran under, read back from the instance (the cgroup quota and the
 * affinity mask), recorded in an artifact's provenance as {@code cpu_limit}. Two artifacts measured
 * under different limits measured different instances, whatever their instance type says.
 *
 * @param requestedCpus what the instance type asks for
 * @param enforcedCpus what the instance was held to; {@code null} when it could not be read
 * @param enforced whether the two agree (the limit was in force)
 * @param mechanism {@code cfs-quota}, {@code affinity}, {@code machine}, ... (see {@link CpuLimit})
 * @param detail what was read, or why the limit was not in force
 */
public record EnforcedCpu(
    Double requestedCpus,
    @Nullable Double enforcedCpus,
    Boolean enforced,
    String mechanism,
    String detail) {

  /** The record of a limit the platform read back. */
  public static EnforcedCpu of(CpuLimit limit) {
    return new EnforcedCpu(
        limit.requestedCpus(),
        limit.enforcedCpus(),
        limit.enforced(),
        limit.mechanism(),
        limit.detail());
  }

  /** {@code 0.500 CPU enforced (cfs-quota)} or {@code 0.500 CPU requested, NOT enforced (...)}. */
  public String describe() {
    if (Boolean.TRUE.equals(enforced) && enforcedCpus != null) {
      return String.format(Locale.ROOT, "%.3f CPU enforced (%s)", enforcedCpus, mechanism);
    }
    return String.format(
        Locale.ROOT,
        "%s CPU requested, NOT enforced (held to %s)",
        requestedCpus == null ? "?" : String.format(Locale.ROOT, "%.3f", requestedCpus),
        enforcedCpus == null
            ? "an unknown share"
            : String.format(Locale.ROOT, "%.3f CPU by %s", enforcedCpus, mechanism));
  }

  /** Whether two records describe the same limit in force (the detail text does not count). */
  static boolean sameLimit(EnforcedCpu a, EnforcedCpu b) {
    return a != null
        && b != null
        && Boolean.TRUE.equals(a.enforced) == Boolean.TRUE.equals(b.enforced)
        && close(a.enforcedCpus, b.enforcedCpus)
        && close(a.requestedCpus, b.requestedCpus);
  }

  private static boolean close(@Nullable Double x, @Nullable Double y) {
    return x == null ? y == null : y != null && Math.abs(x - y) < CpuLimit.TOLERANCE_CPUS;
  }
}
