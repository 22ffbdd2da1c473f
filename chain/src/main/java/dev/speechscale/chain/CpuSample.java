package dev.speechscale.chain;

import dev.speechscale.platform.NanoClock;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * One {@code /proc/stat} and process-CPU reading.
 *
 * @param busyTicks the machine's busy ticks (all but idle and iowait)
 * @param totalTicks the machine's ticks, user through steal
 * @param stealTicks the machine's steal ticks
 * @param processCpuNanos this process's CPU time
 * @param wallNanos {@link NanoClock#SYSTEM} when read
 */
record CpuSample(
    long busyTicks, long totalTicks, long stealTicks, long processCpuNanos, long wallNanos) {
  private static final Path PROC_STAT = Path.of("/proc/stat");

  /** The machine's CPU counters and this process's CPU time now. */
  static CpuSample now() {
    long busy = 0;
    long total = 0;
    long steal = 0;
    try {
      for (String line : Files.readAllLines(PROC_STAT)) {
        if (line.startsWith("cpu ")) {
          long[] f =
              Arrays.stream(line.substring(4).trim().split("\\s+"))
                  .mapToLong(Long::parseLong)
                  .toArray();
          // user nice system idle iowait irq softirq steal guest guest_nice
          for (int i = 0; i < Math.min(8, f.length); i++) {
            total += f[i];
          }
          busy = total - f[3] - (f.length > 4 ? f[4] : 0);
          steal = f.length > 7 ? f[7] : 0;
          break;
        }
      }
    } catch (IOException | RuntimeException notLinux) {
      // no /proc/stat: the machine-wide figures stay empty
    }
    long processCpu = 0;
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      processCpu = os.getProcessCpuTime();
    }
    return new CpuSample(busy, total, steal, processCpu, NanoClock.SYSTEM.nanoTime());
  }
}
