package dev.speechscale.platform;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The CPU limit an endpoint's instances run under, as read back from the operating system (the
 * cgroup and the affinity mask), not as the configuration asks for it.
 *
 * @param requestedCpus what the instance type asks for ({@code local.500mcpu}: 0.5)
 * @param enforcedCpus what the instance is held to, read back; {@code null} when nothing could be
 *     read
 * @param mechanism how it is enforced: {@code cfs-quota}, {@code affinity}, {@code
 *     cfs-quota+affinity}, {@code machine} (the instance has the whole machine) or {@code none}
 * @param detail why the limit is not enforced, or what was read; never {@code null}
 */
public record CpuLimit(
    double requestedCpus, @Nullable Double enforcedCpus, String mechanism, String detail) {

  /** Two CPU figures closer than this are the same limit. */
  public static final double TOLERANCE_CPUS = 0.01;

  /** Whether the instance is held to what its type asks for. */
  public boolean enforced() {
    return enforcedCpus != null && Math.abs(enforcedCpus - requestedCpus) < TOLERANCE_CPUS;
  }

  /** {@code 0.500 CPU enforced (cfs-quota)} or {@code 0.500 CPU requested, NOT enforced: ...}. */
  public String describe() {
    return enforced()
        ? String.format(Locale.ROOT, "%.3f CPU enforced (%s)", enforcedCpus, mechanism)
        : String.format(
            Locale.ROOT,
            "%.3f CPU requested, NOT enforced (held to %s: %s)",
            requestedCpus,
            enforcedCpus == null
                ? "unknown"
                : String.format(Locale.ROOT, "%.3f CPU by %s", enforcedCpus, mechanism),
            detail);
  }
}
