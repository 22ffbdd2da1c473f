package dev.speechscale.server.bench;

import dev.speechscale.server.BenchAccess;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * What one {@code GET /metrics} costs the server to render: the body's bytes, the time to render it
 * and the bytes allocated doing so, per scrape, for each variant the running code offers.
 *
 * <p>The metrics are filled as after a representative run ({@link BenchAccess#metricsScrape}), then
 * rendered {@code warm-up} times unmeasured and {@code renders} times measured, one at a time on
 * this thread; each render is timed on its own with {@link System#nanoTime()} (median and tail
 * percentiles of the per-render times, not a mean of the loop). Allocation is the thread's
 * allocated-bytes counter over the measured loop divided by the renders. The HTTP write is not
 * included: it is the same for both renderers per byte.
 *
 * <p>Run (after {@code mvn -pl server -am test-compile package -DskipTests}): {@code java -cp
 * 'server/target/test-classes:server/target/launch/speech-server.jar:server/target/launch/lib/*'
 * dev.speechscale.server.bench.ScrapeCostBench [renders] [variant...]}.
 */
public final class ScrapeCostBench {
  private ScrapeCostBench() {}

  public static void main(String[] args) {
    int renders = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    String[] variants =
        args.length > 1 ? Arrays.copyOfRange(args, 1, args.length) : new String[] {"text"};
    System.out.printf(
        Locale.ROOT,
        "renders per variant: %d (after %d warm-up); java %s%n",
        renders,
        warmup(renders),
        Runtime.version());
    for (String variant : variants) {
      run(variant, BenchAccess.metricsScrape(variant), renders);
    }
  }

  private static int warmup(int renders) {
    return Math.max(1_000, renders / 5);
  }

  private static void run(String variant, Supplier<byte[]> scrape, int renders) {
    int bytes = 0;
    for (int i = 0; i < warmup(renders); i++) {
      bytes = scrape.get().length;
    }
    long[] nanos = new long[renders];
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < renders; i++) {
      long start = System.nanoTime();
      byte[] body = scrape.get();
      nanos[i] = System.nanoTime() - start;
      bytes = body.length;
    }
    long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
    Arrays.sort(nanos);
    System.out.printf(
        Locale.ROOT,
        "%-24s body %7d bytes  render p50 %8.1f us  p90 %8.1f us  p99 %8.1f us"
            + "  allocated %9d bytes/scrape%n",
        variant,
        bytes,
        at(nanos, 0.50) / 1e3,
        at(nanos, 0.90) / 1e3,
        at(nanos, 0.99) / 1e3,
        allocated / renders);
  }

  /** The nearest-rank percentile of sorted values. */
  private static long at(long[] sorted, double quantile) {
    int rank = (int) Math.ceil(quantile * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }
}
