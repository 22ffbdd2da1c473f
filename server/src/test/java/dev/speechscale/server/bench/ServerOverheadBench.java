package dev.speechscale.server.bench;

import dev.speechscale.server.BenchAccess;
import dev.speechscale.server.SpeechEngine;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
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
 * X-Engine-First-Chunk-Us}). Also the engine called directly, with no server at all, and two floors
 * measured on the same machine in the same loop: a {@code GET /ping} round trip on a second
 * keep-alive connection to the same server (what any request through this HTTP stack costs), and a
 * one-byte round trip to a plain blocking echo thread (the kernel's loopback and the JVM's thread
 * wake-up, with no HTTP at all). The three network series alternate request by request, so machine
 * noise hits them alike; the serving overhead is only meaningful beside them.
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
    long[] ping = new long[n];
    long[] echo = new long[n];
    try (BenchAccess.Running server = BenchAccess.start(engine, "--max-queue-depth", "8");
        Echo echoServer = new Echo();
        Socket socket = connect(server.port());
        Socket pingSocket = connect(server.port());
        Socket echoSocket = connect(echoServer.port())) {
      byte[] pingRequest =
          "GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
      OutputStream pingOut = pingSocket.getOutputStream();
      InputStream pingIn = new BufferedInputStream(pingSocket.getInputStream(), 65536);
      OutputStream echoOut = echoSocket.getOutputStream();
      InputStream echoIn = echoSocket.getInputStream();
      byte[] body = ("{\"text\":\"" + TEXT + "\"}").getBytes(StandardCharsets.UTF_8);
      byte[] request =
          ("POST /invocations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                  + body.length
                  + "\r\n\r\n"
                  + new String(body, StandardCharsets.UTF_8))
              .getBytes(StandardCharsets.UTF_8);
      OutputStream out = socket.getOutputStream();
      InputStream in = new BufferedInputStream(socket.getInputStream(), 65536);
      for (int i = 0; i < n + 50; i++) {
        long start = System.nanoTime();
        out.write(request);
        out.flush();
        Response r = readResponse(in, start);
        long pingStart = System.nanoTime();
        pingOut.write(pingRequest);
        pingOut.flush();
        readFixed(pingIn);
        long pingEnd = System.nanoTime();
        long echoStart = System.nanoTime();
        echoOut.write('x');
        echoOut.flush();
        if (echoIn.read() != 'x') {
          throw new IOException("the echo thread did not answer");
        }
        long echoEnd = System.nanoTime();
        if (i >= 50) {
          ttfab[i - 50] = r.firstBodyByteNanos - start;
          engineFirst[i - 50] = r.engineFirstChunkUs * 1000;
          overhead[i - 50] = ttfab[i - 50] - engineFirst[i - 50];
          ping[i - 50] = pingEnd - pingStart;
          echo[i - 50] = echoEnd - echoStart;
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
    row("floor: GET /ping round trip, same server, c=1", ping);
    row("floor: 1-byte TCP echo round trip (no HTTP), c=1", echo);
  }

  private static Socket connect(int port) throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
    socket.setTcpNoDelay(true);
    return socket;
  }

  /** A blocking one-connection echo server on a platform thread: the loopback floor. */
  private static final class Echo implements AutoCloseable {
    private final ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    private final Thread thread = new Thread(this::serve, "echo");

    Echo() throws IOException {
      thread.setDaemon(true);
      thread.start();
    }

    int port() {
      return server.getLocalPort();
    }

    private void serve() {
      try (Socket s = server.accept()) {
        s.setTcpNoDelay(true);
        InputStream in = s.getInputStream();
        OutputStream out = s.getOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
          out.write(b);
          out.flush();
        }
      } catch (IOException e) {
        // closed by close(): the benchmark is over
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }

  /** Reads one response with a Content-Length body (the /ping answer). */
  private static void readFixed(InputStream in) throws IOException {
    int length = -1;
    String line;
    while (!(line = readLine(in)).isEmpty()) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(line.indexOf(':') + 1).strip());
      }
      if (line.startsWith("HTTP/1.1 ") && !line.startsWith("HTTP/1.1 200")) {
        throw new IOException("unexpected /ping answer: " + line);
      }
    }
    if (length < 0) {
      throw new IOException("/ping answered without Content-Length");
    }
    in.readNBytes(length);
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
    String status = readLine(in);
    if (!status.startsWith("HTTP/1.1 200")) {
      throw new IOException("unexpected response: " + status);
    }
    long engineUs = -1;
    String line;
    while (!(line = readLine(in)).isEmpty()) {
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
