package dev.speechscale.server.bench;

import dev.speechscale.server.BenchAccess;
import dev.speechscale.server.SpeechEngine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * Serving overhead at concurrency 1, side by side with the engine's bare cost.
 *
 * <p>For each request: the client's time to first audio byte (TTFAB: write of the request → first
 * body byte read, over loopback, one keep-alive connection, one request at a time) minus the
 * engine's own time to its first chunk for that same request (the server reports it in {@code
 * X-Engine-First-Chunk-Us}). Also the engine called directly, with no server at all.
 *
 * <p>Run: {@code server/bench/run-server-bench.sh} (or: java --enable-native-access=ALL-UNNAMED -cp
 * 'server/target/test-classes:server/target/launch/speech-server.jar:server/target/launch/lib/*'
 * dev.speechscale.server.bench.ServerOverheadBench [requests]).
 */
public final class ServerOverheadBench {
  private static final String TEXT = "The quick brown fox jumps over the lazy dog.";

  private ServerOverheadBench() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 500;
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    SpeechEngine engine = BenchAccess.flite(1);
    long[] bareFirst = new long[n];
    long[] bareTotal = new long[n];
    for (int i = 0; i < n + 50; i++) {
      long start = System.nanoTime();
      long[] first = {0};
      engine.synthesize(
          TEXT,
          engine.defaultVoice(),
          1.0,
          (s, o, l) -> {
            if (first[0] == 0) {
              first[0] = System.nanoTime();
            }
            return true;
          });
      long end = System.nanoTime();
      if (i >= 50) {
        bareFirst[i - 50] = first[0] - start;
        bareTotal[i - 50] = end - start;
      }
    }
    long[] ttfab = new long[n];
    long[] engineFirst = new long[n];
    long[] overhead = new long[n];
    try (BenchAccess.Running server = BenchAccess.start(engine, "--max-queue-depth", "8");
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      socket.setTcpNoDelay(true);
      byte[] body = ("{\"text\":\"" + TEXT + "\"}").getBytes(StandardCharsets.UTF_8);
      byte[] request =
          ("POST /invocations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                  + body.length
                  + "\r\n\r\n"
                  + new String(body, StandardCharsets.UTF_8))
              .getBytes(StandardCharsets.UTF_8);
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      for (int i = 0; i < n + 50; i++) {
        long start = System.nanoTime();
        out.write(request);
        out.flush();
        Response r = readResponse(in, start);
        if (i >= 50) {
          ttfab[i - 50] = r.firstBodyByteNanos - start;
          engineFirst[i - 50] = r.engineFirstChunkUs * 1000;
          overhead[i - 50] = ttfab[i - 50] - engineFirst[i - 50];
        }
      }
    }
    engine.close();
    System.out.printf(
        Locale.ROOT, "requests per series: %d (after 50 warm-up), text: %s%n", n, TEXT);
    row("engine bare: time to first chunk", bareFirst);
    row("engine bare: full synthesis", bareTotal);
    row("server: engine time to first chunk (X-Engine-First-Chunk-Us)", engineFirst);
    row("client: TTFAB over loopback, c=1", ttfab);
    row("serving overhead = TTFAB - engine first chunk (per request)", overhead);
  }

  private static void row(String name, long[] nanos) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    System.out.printf(
        Locale.ROOT,
        "%-64s p50 %8.3f ms  p95 %8.3f ms  p99 %8.3f ms  max %8.3f ms%n",
        name,
        pct(s, 50),
        pct(s, 95),
        pct(s, 99),
        s[s.length - 1] / 1e6);
  }

  private static double pct(long[] sorted, double p) {
    double rank = p / 100 * (sorted.length - 1);
    int lo = (int) Math.floor(rank);
    int hi = (int) Math.ceil(rank);
    return (sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo)) / 1e6;
  }

  private record Response(long firstBodyByteNanos, long engineFirstChunkUs) {}

  /** Reads one chunked response; notes when the first body byte arrived. */
  private static Response readResponse(InputStream in, long start) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed in headers");
      }
      head.write(b);
    }
    String headers = head.toString(StandardCharsets.ISO_8859_1);
    if (!headers.startsWith("HTTP/1.1 200")) {
      throw new IOException("unexpected response: " + headers);
    }
    long engineUs = -1;
    for (String line : headers.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("x-engine-first-chunk-us:")) {
        engineUs = Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
      }
    }
    long first = 0;
    while (true) {
      String size = readLine(in);
      int n = Integer.parseInt(size.strip(), 16);
      if (n == 0) {
        readLine(in);
        return new Response(first, engineUs);
      }
      byte[] chunk = in.readNBytes(n);
      if (first == 0 && chunk.length > 0) {
        first = System.nanoTime();
      }
      readLine(in);
    }
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    int b;
    while ((b = in.read()) >= 0 && b != '\n') {
      if (b != '\r') {
        line.append((char) b);
      }
    }
    return line.toString();
  }
}
