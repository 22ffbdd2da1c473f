package dev.speechscale.benchmarks;

import dev.speechscale.loadgen.ClosedLoopDriver;
import dev.speechscale.loadgen.JsonlEventLog;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.RungRecording;
import dev.speechscale.loadgen.RungVerdict;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.loadgen.WindowStats;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.Invokers;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Transport;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The loadgen-vs-wrk benchmark (measurements/loadgen-vs-wrk.md): the same trivial keep-alive
 * endpoint, in its own JVM, driven alternately by {@code wrk} and by this load generator at the
 * same concurrency on the same machine; prints a Markdown table of raw numbers.
 *
 * <p>Usage: {@code LoadgenVsWrk [--concurrency 8,64] [--seconds 10] [--rounds 3] [--wrk-threads
 * 2]}. The load generator runs a closed-loop rung of N workers over the http-stream invoker and
 * records every request (an event per request, TTFAB and latency HdrHistograms): with events in
 * memory on platform-thread workers (the default), the same on virtual-thread workers, and on
 * platform threads also writing the JSONL event log. Before the first round it warms up for the
 * same duration on each kind of worker (the JIT; wrk has none). wrk sends the same POST body via a
 * Lua script. Benchmarks never gate a merge.
 */
public final class LoadgenVsWrk {
  private static final String BODY = "{\"text\":\"Hello there.\",\"stream\":true}";
  private static final Pattern WRK_RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern WRK_TOTAL = Pattern.compile("(\\d+) requests in");

  private LoadgenVsWrk() {}

  public static void main(String[] args) throws Exception {
    List<Integer> levels = List.of(8, 64);
    int seconds = 10;
    int rounds = 3;
    int wrkThreads = 2;
    for (int i = 0; i < args.length; i += 2) {
      switch (args[i]) {
        case "--concurrency" ->
            levels = java.util.Arrays.stream(args[i + 1].split(",")).map(Integer::valueOf).toList();
        case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
        case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
        case "--wrk-threads" -> wrkThreads = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    PrintStream out = System.out;
    Path lua = Files.createTempFile("loadgen-vs-wrk", ".lua");
    Files.writeString(
        lua,
        "wrk.method = \"POST\"\nwrk.body = '"
            + BODY
            + "'\nwrk.headers[\"Content-Type\"] = \"application/json\"\n");
    Process server = ChildJvm.start(TrivialHttpServer.class);
    try {
      int port = ChildJvm.port(server, "the trivial server");
      URI base = URI.create("http://127.0.0.1:" + port);
      out.println("server: TrivialHttpServer (separate JVM) on " + base);
      out.println();
      out.println(
          "| N | round | client | requests | req/s | loadgen/wrk | p50 ms | p99 ms"
              + " | client mean in-flight | self-check |");
      out.println("|---|---|---|---|---|---|---|---|---|---|");
      try (Invoker invoker =
          Invokers.create(
              new InvokerTarget(
                  Transport.HTTP_STREAM,
                  "bench",
                  base,
                  "local",
                  Duration.ofSeconds(10),
                  NanoClock.SYSTEM,
                  Map.of()))) {
        // JIT warm-up: wrk has none
        loadgen(
            invoker,
            levels.get(levels.size() - 1),
            seconds,
            null,
            ClosedLoopDriver.Workers.PLATFORM);
        loadgen(
            invoker,
            levels.get(levels.size() - 1),
            seconds,
            null,
            ClosedLoopDriver.Workers.VIRTUAL);
        for (int n : levels) {
          for (int r = 1; r <= rounds; r++) {
            double[] wrk = wrk(wrkThreads, n, seconds, lua, base);
            row(out, n, r, "wrk -t" + wrkThreads, (long) wrk[1], wrk[0], wrk[0], null);
            Result mem = loadgen(invoker, n, seconds, null, ClosedLoopDriver.Workers.PLATFORM);
            row(out, n, r, "loadgen", mem.requests, mem.rps, wrk[0], mem);
            Result virtual = loadgen(invoker, n, seconds, null, ClosedLoopDriver.Workers.VIRTUAL);
            row(
                out,
                n,
                r,
                "loadgen, virtual threads",
                virtual.requests,
                virtual.rps,
                wrk[0],
                virtual);
            Path log = Files.createTempFile("loadgen-vs-wrk", ".jsonl");
            try {
              Result logged = loadgen(invoker, n, seconds, log, ClosedLoopDriver.Workers.PLATFORM);
              row(out, n, r, "loadgen + JSONL", logged.requests, logged.rps, wrk[0], logged);
            } finally {
              Files.deleteIfExists(log);
            }
          }
        }
      }
    } finally {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
      Files.deleteIfExists(lua);
    }
  }

  private record Result(long requests, double rps, WindowStats stats, RungVerdict verdict) {}

  private static Result loadgen(
      Invoker invoker, int n, int seconds, @Nullable Path log, ClosedLoopDriver.Workers workers) {
    TextPool texts = TextPool.shuffled(List.of("Hello there."), 1);
    @Nullable JsonlEventLog events =
        log == null ? null : JsonlEventLog.open(log, NanoClock.SYSTEM, Clock.systemUTC());
    RequestListener listener = events == null ? RequestListener.NONE : events;
    try (ClosedLoopDriver driver =
        new ClosedLoopDriver(invoker, texts, NanoClock.SYSTEM, listener, workers)) {
      RungRecording rec = driver.run(0, 0, n, Duration.ofSeconds(seconds));
      // every request's timing is recorded: the events, and histograms over the whole hold
      WindowStats stats =
          WindowStats.compute(rec.events(), n, rec.startNanos(), rec.holdEndNanos());
      RungVerdict verdict =
          RungVerdict.judge(stats, WindowStats.workerOverlaps(rec.events()), List.of());
      return new Result(rec.events().size(), stats.ok() / stats.windowSeconds(), stats, verdict);
    } finally {
      if (events != null) {
        events.close();
      }
    }
  }

  private static double[] wrk(int threads, int n, int seconds, Path lua, URI base)
      throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(
                "wrk",
                "-t" + threads,
                "-c" + n,
                "-d" + seconds + "s",
                "-s",
                lua.toString(),
                base + "/invocations")
            .redirectErrorStream(true)
            .start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException("wrk failed: " + text);
    }
    Matcher rps = WRK_RPS.matcher(text);
    Matcher total = WRK_TOTAL.matcher(text);
    if (!rps.find() || !total.find()) {
      throw new IOException("cannot read wrk's output: " + text);
    }
    return new double[] {Double.parseDouble(rps.group(1)), Double.parseDouble(total.group(1))};
  }

  private static void row(
      PrintStream out,
      int n,
      int round,
      String client,
      long requests,
      double rps,
      double wrkRps,
      @Nullable Result r) {
    out.printf(
        Locale.ROOT,
        "| %d | %d | %s | %d | %.0f | %s | %s | %s | %s | %s |%n",
        n,
        round,
        client,
        requests,
        rps,
        r == null ? "—" : String.format(Locale.ROOT, "%.0f%%", 100 * rps / wrkRps),
        r == null ? "—" : String.format(Locale.ROOT, "%.3f", r.stats.latencyP50Ms()),
        r == null ? "—" : String.format(Locale.ROOT, "%.3f", r.stats.latencyP99Ms()),
        r == null ? "—" : String.format(Locale.ROOT, "%.2f", r.stats.concurrencyMean()),
        r == null ? "—" : r.verdict.name());
    out.flush();
  }
}
