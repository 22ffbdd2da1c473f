package dev.speechscale.platform.local.bench;

import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.platform.local.LocalDeployer;
import dev.speechscale.platform.local.LocalState;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Router overhead: time to first audio byte through the router vs straight to the instance, side by
 * side (alternating, same text, concurrency 1) on one real flite endpoint. A raw-socket HTTP/1.1
 * client with keep-alive reads the response head and the first body byte; the difference of the two
 * distributions is what the router adds.
 *
 * <p>Run: {@code mvn -q -pl platform-local test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.speechscale.platform.local.bench.RouterOverheadBench -Dexec.args="2000"}
 */
public final class RouterOverheadBench {
  private RouterOverheadBench() {}

  public static void main(String[] args) throws Exception {
    int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    Path dir = Files.createTempDirectory("router-bench");
    Path config = dir.resolve("endpoints.yaml");
    Files.writeString(
        config,
        "models:\n  bench: {engine: flite, instance_type: local.1cpu,"
            + " min_instances: 1, max_instances: 1}\n");
    LocalDeployer deployer = new LocalDeployer(dir.resolve("state"), System.err::println);
    LocalDeployer.Deployed d =
        deployer.deploy(EndpointConfigFile.read(config).model("bench"), config, null);
    try {
      LocalDeployer.Report r = deployer.status(d.endpoint());
      LocalState.InstanceRecord instance = r.status().instances().getFirst();
      int routerPort = r.status().routerPort();
      byte[] body =
          "{\"text\":\"Router overhead, measured side by side.\"}".getBytes(StandardCharsets.UTF_8);
      try (Client direct = new Client(instance.port(), body);
          Client routed = new Client(routerPort, body)) {
        for (int i = 0; i < 200; i++) {
          direct.ttfbNanos();
          routed.ttfbNanos();
        }
        long[] a = new long[pairs];
        long[] b = new long[pairs];
        for (int i = 0; i < pairs; i++) {
          if (i % 2 == 0) {
            a[i] = direct.ttfbNanos();
            b[i] = routed.ttfbNanos();
          } else {
            b[i] = routed.ttfbNanos();
            a[i] = direct.ttfbNanos();
          }
        }
        report("direct to the instance", a);
        report("through the router", b);
        Arrays.sort(a);
        Arrays.sort(b);
        System.out.printf(
            Locale.ROOT,
            "added by the router: p50 %.3f ms, p95 %.3f ms, p99 %.3f" + " ms (%d pairs)%n",
            (pct(b, 50) - pct(a, 50)) / 1e6,
            (pct(b, 95) - pct(a, 95)) / 1e6,
            (pct(b, 99) - pct(a, 99)) / 1e6,
            pairs);
      }
    } finally {
      deployer.destroy(d.endpoint());
    }
  }

  private static void report(String name, long[] nanos) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    System.out.printf(
        Locale.ROOT,
        "%-24s TTFAB p50 %.3f ms, p95 %.3f ms, p99 %.3f ms%n",
        name,
        pct(s, 50) / 1e6,
        pct(s, 95) / 1e6,
        pct(s, 99) / 1e6);
  }

  private static double pct(long[] sorted, double p) {
    double rank = p / 100 * (sorted.length - 1);
    int lo = (int) Math.floor(rank);
    int hi = Math.min(sorted.length - 1, lo + 1);
    return sorted[lo] + (rank - lo) * (sorted[hi] - sorted[lo]);
  }

  /** A keep-alive HTTP/1.1 client that times the first body byte and drains the rest. */
  private static final class Client implements AutoCloseable {
    private final Socket socket = new Socket();
    private final byte[] request;
    private final InputStream in;
    private final OutputStream out;

    Client(int port, byte[] body) throws IOException {
      socket.setTcpNoDelay(true);
      socket.connect(new InetSocketAddress("127.0.0.1", port));
      in = new java.io.BufferedInputStream(socket.getInputStream(), 65536);
      out = socket.getOutputStream();
      String head =
          "POST /invocations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type:"
              + " application/json\r\nContent-Length: "
              + body.length
              + "\r\n\r\n";
      byte[] h = head.getBytes(StandardCharsets.US_ASCII);
      request = Arrays.copyOf(h, h.length + body.length);
      System.arraycopy(body, 0, request, h.length, body.length);
    }

    long ttfbNanos() throws IOException {
      long start = System.nanoTime();
      out.write(request);
      out.flush();
      String status = line();
      if (!status.contains(" 200 ")) {
        throw new IOException("unexpected status: " + status);
      }
      while (!line().isEmpty()) {
        // headers; the body is chunked
      }
      long first = 0;
      while (true) {
        int size = Integer.parseInt(line().split(";")[0].trim(), 16);
        if (size == 0) {
          line();
          break;
        }
        for (int i = 0; i < size; i++) {
          if (in.read() < 0) {
            throw new IOException("closed");
          }
          if (first == 0) {
            first = System.nanoTime();
          }
        }
        line();
      }
      return first - start;
    }

    private String line() throws IOException {
      StringBuilder b = new StringBuilder();
      int c;
      while ((c = in.read()) >= 0 && c != '\n') {
        if (c != '\r') {
          b.append((char) c);
        }
      }
      return b.toString();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
