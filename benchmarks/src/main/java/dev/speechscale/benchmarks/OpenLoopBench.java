package dev.speechscale.benchmarks;

import dev.speechscale.loadgen.JsonlEventLog;
import dev.speechscale.loadgen.OpenLoopDriver;
import dev.speechscale.loadgen.OpenLoopResult;
import dev.speechscale.loadgen.OpenLoopSpec;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.Shard;
import dev.speechscale.loadgen.ShardLog;
import dev.speechscale.loadgen.ShardMerge;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.Invokers;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Transport;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * The open-loop benchmark (measurements/open-loop.md), run by {@code benchmarks/open-loop.sh}
 * against a {@link StreamingAudioServer} in another JVM on another core. Three modes:
 *
 * <ul>
 *   <li>{@code ramp --target URL --rates 1000,2000,... [--seconds 20] [--warmup-seconds 5]
 *       [--max-in-flight 19000] [--out DIR]}: one Poisson open-loop run per rate, each recording
 *       every request (event log, HdrHistogram log); prints a Markdown row per rate and the highest
 *       rate that held zero dropped arrivals and send lag p99 ≤ 5 ms; stops at the first rate that
 *       did not.
 *   <li>{@code shard --target URL --rate R --seconds S --seed X --shard k/N --out DIR
 *       [--warmup-seconds 0]}: after an unrecorded warm-up at R/N, shard k of N of one seeded
 *       schedule ({@code --shard 0/1}: the whole schedule), writing {@code DIR/events.jsonl} and
 *       {@code DIR/run.hlog}.
 *   <li>{@code merge --single DIR --shards DIR0,DIR1,...}: merges the shards' logs ({@link
 *       ShardMerge}) and compares their arrivals with the single run's; exits 1 when they differ.
 * </ul>
 */
public final class OpenLoopBench {
  private static final double LAG_P99_BOUND_MS = 5.0;

  /** The text of a Kokoro example request: 25 characters, the example plan's mean. */
  private static final TextPool TEXTS =
      TextPool.shuffled(List.of("The quick brown fox naps.", "Hello there, how are you?"), 1);

  /** The one driver's listener: the current run's event log and histogram log. */
  private static final Switch LISTENER = new Switch();

  private OpenLoopBench() {}

  private static final class Switch implements RequestListener {
    volatile RequestListener current = RequestListener.NONE;

    @Override
    public void completed(RequestEvent event) {
      current.completed(event);
    }

    @Override
    public void dropped(int phaseIndex, long seq, long intendedNanos) {
      current.dropped(phaseIndex, seq, intendedNanos);
    }

    @Override
    public void scheduleStarted(long startNanos) {
      current.scheduleStarted(startNanos);
    }

    @Override
    public void flush() {
      current.flush();
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      throw new IllegalArgumentException("give a mode: ramp, shard or merge");
    }
    Map<String, String> o = new HashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (i + 1 >= args.length || !args[i].startsWith("--")) {
        throw new IllegalArgumentException("options are --name value pairs; got " + args[i]);
      }
      o.put(args[i].substring(2), args[i + 1]);
    }
    switch (args[0]) {
      case "ramp" -> ramp(o);
      case "shard" -> shard(o);
      case "merge" -> System.exit(merge(o) ? 0 : 1);
      default -> throw new IllegalArgumentException("unknown mode " + args[0]);
    }
  }

  private static String need(Map<String, String> o, String name) {
    String v = o.get(name);
    if (v == null) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return v;
  }

  private static Invoker invoker(URI base) {
    return Invokers.create(
        new InvokerTarget(
            Transport.HTTP_STREAM,
            "open-loop-bench",
            base,
            "local",
            Duration.ofSeconds(30),
            NanoClock.SYSTEM,
            Map.of()));
  }

  private static void ramp(Map<String, String> o) throws Exception {
    URI base = URI.create(need(o, "target"));
    double[] rates =
        Arrays.stream(need(o, "rates").split(",")).mapToDouble(Double::parseDouble).toArray();
    int seconds = Integer.parseInt(o.getOrDefault("seconds", "20"));
    int warmup = Integer.parseInt(o.getOrDefault("warmup-seconds", "5"));
    int maxInFlight = Integer.parseInt(o.getOrDefault("max-in-flight", "19000"));
    Path out = Path.of(o.getOrDefault("out", "target/bench/open-loop"));
    PrintStream p = System.out;
    p.println(
        "| rate/s | intended | sent | dropped | late >5ms | lag p50 / p99 / max ms | ok | other"
            + " | TTFAB p50 / p99 ms | latency p50 / p99 ms | peak open streams | GC count / ms |"
            + " CPU s / wall s | load avg | held |");
    p.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    try (Invoker inv = invoker(base);
        OpenLoopDriver driver = new OpenLoopDriver(inv, TEXTS, NanoClock.SYSTEM, LISTENER)) {
      if (warmup > 0) {
        // the JIT, and the connection pool at the highest rate's size: one driver runs every
        // rate, so the measured runs reuse connections instead of measuring TCP handshakes
        // It records as a measured rate does (event log and histogram log, into a scratch folder
        // deleted afterwards): otherwise the recording path is compiled by the JIT during the
        // first measured rate, on the generator's one core, and stalls it for up to 0.7 s.
        double top = Arrays.stream(rates).max().orElseThrow();
        warmUp(driver, top, warmup, maxInFlight, 1, out.resolve("warmup"));
      }
      double best = 0;
      for (double rate : rates) {
        Path dir = out.resolve(String.format(Locale.ROOT, "rate-%.0f", rate));
        // Each rate starts on an empty young generation: the garbage of the warm-up and of the
        // rates before must not decide when this rate's first collection comes. A collection
        // during the run is still counted (the GC column) and still shows in the lag.
        System.gc();
        Row r = runOnce(driver, rate, seconds, maxInFlight, 7, Shard.WHOLE, dir);
        p.println(r.markdown());
        p.flush();
        if (!r.held()) {
          break;
        }
        best = rate;
      }
      p.println();
      p.println(
          "highest rate held (0 dropped, send lag p99 <= "
              + LAG_P99_BOUND_MS
              + " ms): "
              + (best == 0 ? "none" : String.format(Locale.ROOT, "%.0f/s", best)));
    }
  }

  private static void shard(Map<String, String> o) throws Exception {
    URI base = URI.create(need(o, "target"));
    double rate = Double.parseDouble(need(o, "rate"));
    int seconds = Integer.parseInt(need(o, "seconds"));
    long seed = Long.parseLong(need(o, "seed"));
    Shard shard = Shard.parse(need(o, "shard"));
    int maxInFlight = Integer.parseInt(o.getOrDefault("max-in-flight", "19000"));
    Path dir = Path.of(need(o, "out"));
    try (Invoker inv = invoker(base);
        OpenLoopDriver driver = new OpenLoopDriver(inv, TEXTS, NanoClock.SYSTEM, LISTENER)) {
      int warmup = Integer.parseInt(o.getOrDefault("warmup-seconds", "0"));
      if (warmup > 0) { // the JIT and this shard's share of the connections: not recorded
        warmUp(driver, rate / shard.count(), warmup, maxInFlight, seed + 1, dir.resolve("warmup"));
      }
      Row r = runOnce(driver, rate, seconds, maxInFlight, seed, shard, dir);
      System.out.println("shard " + shard + ": " + r.markdown());
    }
  }

  private static boolean merge(Map<String, String> o) {
    Path single = Path.of(need(o, "single"));
    List<Path> hlogs = new ArrayList<>();
    List<Path> events = new ArrayList<>();
    for (String d : need(o, "shards").split(",")) {
      hlogs.add(Path.of(d, "run.hlog"));
      events.add(Path.of(d, "events.jsonl"));
    }
    ShardMerge merged = ShardMerge.read(hlogs, events);
    Path out = Path.of(o.getOrDefault("out", single.resolveSibling("merged").toString()));
    merged.write(out.resolve("run.hlog"), out.resolve("events.jsonl"));
    List<ShardMerge.Arrival> expected = ShardMerge.arrivals(single.resolve("events.jsonl"));
    boolean equal = merged.arrivals().equals(expected);
    long mergedCount = merged.histogram("p0.arrivals").getTotalCount();
    Histogram lag = merged.histogram("p0.send_lag");
    System.out.printf(
        Locale.ROOT,
        "merge of %d shards: %d arrivals (histogram log count %d), single process: %d;"
            + " seq, phase and schedule_offset_ns of every arrival %s; merged send lag p99 %.3f"
            + " ms, TTFAB p50 %.1f ms%n",
        merged.count(),
        merged.arrivals().size(),
        mergedCount,
        expected.size(),
        equal ? "EQUAL" : "DIFFER",
        lag.getValueAtPercentile(99) / 1000.0,
        merged.histogram("p0.ttfab").getValueAtPercentile(50) / 1000.0);
    return equal && mergedCount == expected.size();
  }

  private record Row(
      double rate,
      OpenLoopResult.PhaseResult ph,
      long other,
      double lagP50,
      double lagP99,
      int peakOpen,
      long gcCount,
      long gcMs,
      double cpuS,
      double wallS,
      String load) {
    boolean held() {
      return ph.dropped() == 0 && lagP99 <= LAG_P99_BOUND_MS;
    }

    String markdown() {
      return String.format(
          Locale.ROOT,
          "| %.0f | %d | %d | %d | %d | %.2f / %.2f / %.1f | %d | %d | %s / %s | %s / %s | %d |"
              + " %d / %d | %.1f / %.1f | %s | %s |",
          rate,
          ph.intended(),
          ph.sent(),
          ph.dropped(),
          ph.late(),
          lagP50,
          lagP99,
          ph.maxSendLagMs(),
          ph.ok(),
          other,
          f(ph.ttfabP50Ms()),
          f(ph.ttfabP99Ms()),
          f(ph.latencyP50Ms()),
          f(ph.latencyP99Ms()),
          peakOpen,
          gcCount,
          gcMs,
          cpuS,
          wallS,
          load,
          held() ? "yes" : "no");
    }
  }

  private static String f(@Nullable Double v) {
    return v == null ? "—" : String.format(Locale.ROOT, "%.1f", v);
  }

  /** An unrecorded run that exercises the recording path: its files are deleted afterwards. */
  private static void warmUp(
      OpenLoopDriver driver, double rate, int seconds, int maxInFlight, long seed, Path scratch)
      throws IOException {
    runOnce(driver, rate, seconds, maxInFlight, seed, Shard.WHOLE, scratch);
    try (var files = Files.walk(scratch)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }

  private static Row runOnce(
      OpenLoopDriver driver,
      double rate,
      int seconds,
      int maxInFlight,
      long seed,
      Shard shard,
      @Nullable Path dir) {
    OpenLoopSpec spec =
        OpenLoopSpec.constant(
            rate, Duration.ofSeconds(seconds), OpenLoopSpec.Arrivals.POISSON, maxInFlight, seed);
    String load = loadAverage();
    long gcCount0 = gcCount();
    long gcMs0 = gcMs();
    long cpu0 = cpuNanos();
    long wall0 = NanoClock.SYSTEM.nanoTime();
    OpenLoopResult result;
    ShardLog hlog = new ShardLog(shard);
    if (dir == null) {
      LISTENER.current = hlog;
      result = driver.run(spec, shard);
    } else {
      try (JsonlEventLog events =
          JsonlEventLog.open(dir.resolve("events.jsonl"), NanoClock.SYSTEM, Clock.systemUTC())) {
        LISTENER.current = RequestListener.both(events, hlog);
        result = driver.run(spec, shard);
      } finally {
        LISTENER.current = RequestListener.NONE;
      }
      hlog.write(dir.resolve("run.hlog"), spec, result);
    }
    double wallS = (NanoClock.SYSTEM.nanoTime() - wall0) / 1e9;
    OpenLoopResult.PhaseResult ph = result.phases().get(0);
    Histogram lag = ph.sendLagHistogram();
    return new Row(
        rate,
        ph,
        ph.sent() - ph.ok(),
        lag.getTotalCount() == 0 ? 0 : lag.getValueAtPercentile(50) / 1000.0,
        lag.getTotalCount() == 0 ? 0 : lag.getValueAtPercentile(99) / 1000.0,
        peakOpen(result.events()),
        gcCount() - gcCount0,
        gcMs() - gcMs0,
        (cpuNanos() - cpu0) / 1e9,
        wallS,
        load);
  }

  /** The most requests between send and completion at once. */
  private static int peakOpen(List<RequestEvent> events) {
    long[] edges = new long[events.size() * 2];
    int i = 0;
    for (RequestEvent e : events) {
      edges[i++] = e.sentNanos() << 1 | 1; // an opening
      edges[i++] = e.completedNanos() << 1; // a closing sorts first at the same time
    }
    Arrays.sort(edges);
    int open = 0;
    int peak = 0;
    for (long edge : edges) {
      open += (edge & 1) == 1 ? 1 : -1;
      peak = Math.max(peak, open);
    }
    return peak;
  }

  private static long gcCount() {
    long n = 0;
    for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, b.getCollectionCount());
    }
    return n;
  }

  private static long gcMs() {
    long n = 0;
    for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, b.getCollectionTime());
    }
    return n;
  }

  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static String loadAverage() {
    try {
      return java.nio.file.Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (java.io.IOException e) {
      return "?";
    }
  }
}
