package dev.speechscale.chain;

import dev.speechscale.artifacts.RungCheck;
import org.jspecify.annotations.Nullable;

/**
 * What the machine's CPUs did over one rung's hold, from the samples at its start and end; each
 * figure {@code null} when the samples cannot say (no {@code /proc/stat}, or no time passed).
 *
 * @param stealShare the share of the machine's ticks stolen by the hypervisor
 * @param busyCpus the machine's busy CPUs
 * @param generatorCpus the CPUs this process (the load generator) used
 * @param otherCpus busy CPUs beyond the generator and the instance's limit (1 when unknown)
 */
record RungCpu(
    @Nullable Double stealShare,
    @Nullable Double busyCpus,
    @Nullable Double generatorCpus,
    @Nullable Double otherCpus) {
  /** No samples: every figure unknown. */
  static final RungCpu UNKNOWN = new RungCpu(null, null, null, null);

  /** The figures between {@code a} and {@code b} on a machine of {@code cpus} CPUs. */
  static RungCpu between(CpuSample a, CpuSample b, int cpus, @Nullable Double limitCpus) {
    long total = b.totalTicks() - a.totalTicks();
    double wallS = (b.wallNanos() - a.wallNanos()) / 1e9;
    if (total <= 0 || wallS <= 0) {
      return UNKNOWN;
    }
    double steal = (b.stealTicks() - a.stealTicks()) / (double) total;
    double busy = cpus * (b.busyTicks() - a.busyTicks()) / (double) total;
    double gen = (b.processCpuNanos() - a.processCpuNanos()) / 1e9 / wallS;
    double other = Math.max(0, busy - gen - (limitCpus == null ? 1.0 : limitCpus));
    return new RungCpu(steal, busy, gen, other);
  }

  /** Other work or steal beyond {@link RungCheck}'s bounds. */
  boolean machineBusy() {
    return (otherCpus != null && otherCpus > RungCheck.BUSY_OTHER_CPUS)
        || (stealShare != null && stealShare > RungCheck.BUSY_STEAL);
  }

  /** The generator used more than {@link RungCheck#GENERATOR_BOUND_SHARE} of {@code cpus}. */
  boolean generatorBound(int cpus) {
    return generatorCpus != null && generatorCpus > RungCheck.GENERATOR_BOUND_SHARE * cpus;
  }
}
