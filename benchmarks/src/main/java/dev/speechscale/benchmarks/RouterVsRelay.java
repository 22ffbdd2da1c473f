package dev.speechscale.benchmarks;

import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.platform.NanoClock;
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
import java.util.List;
import java.util.Locale;

/**
 * The router-overhead ratio (measurements/open-loop.md): time to first audio byte on one local
 * flite endpoint ({@code local.1cpu}) three ways in one run — straight to the instance, through a
 * bare {@link TcpRelay} (its own JVM) and through the local router — at concurrency 1, the order
 * rotating every request, so the three series share the machine's moments. Prints each series'
 * percentiles, what the relay and the router add over direct at p50 and p95 (differences of
 * percentiles, as measurements/router-overhead.md reports them, and percentiles of each triple's
 * own differences), and the ratio of the two (target ≤ 1.5).
 *
 * <p>Usage: {@code RouterVsRelay [triples]} (default 2000, after 200 warm-up triples).
 */
public final class RouterVsRelay {
  private static final byte[] BODY =
      "{\"text\":\"Router overhead, measured side by side.\"}".getBytes(StandardCharsets.UTF_8);

  private RouterVsRelay() {}

  public static void main(String[] args) throws Exception {
    int triples = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    Path dir = Files.createTempDirectory("router-vs-relay");
    Path config = dir.resolve("endpoints.yaml");
    Files.writeString(
        config,
        "models:\n  bench: {engine: flite, instance_type: local.1cpu,"
            + " min_instances: 1, max_instances: 1}\n");
    LocalDeployer deployer = new LocalDeployer(dir.resolve("state"), System.err::println);
    LocalDeployer.Deployed d =
        deployer.deploy(EndpointConfigFile.read(config).model("bench"), config, null);
    Process relay = null;
    try {
      LocalDeployer.Report r = deployer.status(d.endpoint());
      dev.speechscale.platform.local.Views.Status status =
          java.util.Objects.requireNonNull(r.status(), "the deployed endpoint has no status");
      LocalState.InstanceRecord instance = status.instances().getFirst();
      relay = ChildJvm.start(TcpRelay.class, Integer.toString(instance.port()));
      int relayPort = ChildJvm.port(relay, "the relay");
      try (Client direct = new Client(instance.port());
          Client relayed = new Client(relayPort);
          Client routed = new Client(status.routerPort())) {
        List<Client> clients = List.of(direct, relayed, routed);
        long[][] t = new long[3][triples];
        for (int i = 0; i < 200 + triples; i++) {
          for (int j = 0; j < 3; j++) {
            int which = (i + j) % 3;
            long nanos = clients.get(which).ttfbNanos();
            if (i >= 200) {
              t[which][i - 200] = nanos;
            }
          }
        }
        String[] names = {
          "direct to the instance", "through a bare TCP relay", "through the router"
        };
        double[][] p = new double[3][];
        for (int k = 0; k < 3; k++) {
          long[] s = t[k].clone();
          Arrays.sort(s);
          p[k] = new double[] {pct(s, 50) / 1e6, pct(s, 95) / 1e6, pct(s, 99) / 1e6};
          System.out.printf(
              Locale.ROOT,
              "%-26s TTFAB p50 %.3f ms, p95 %.3f ms, p99 %.3f ms%n",
              names[k],
              p[k][0],
              p[k][1],
              p[k][2]);
        }
        double relayP50 = p[1][0] - p[0][0];
        double relayP95 = p[1][1] - p[0][1];
        double routerP50 = p[2][0] - p[0][0];
        double routerP95 = p[2][1] - p[0][1];
        System.out.printf(
            Locale.ROOT,
            "added by the relay: p50 %.3f ms, p95 %.3f ms; added by the router: p50 %.3f ms,"
                + " p95 %.3f ms; router/relay: p50 %.2fx, p95 %.2fx (%d triples)%n",
            relayP50,
            relayP95,
            routerP50,
            routerP95,
            routerP50 / relayP50,
            routerP95 / relayP95,
            triples);
        // the same from each triple's own differences: robust when a percentile difference is
        // near zero or negative on a busy machine
        long[] relayDiff = new long[triples];
        long[] routerDiff = new long[triples];
        for (int i = 0; i < triples; i++) {
          relayDiff[i] = t[1][i] - t[0][i];
          routerDiff[i] = t[2][i] - t[0][i];
        }
        Arrays.sort(relayDiff);
        Arrays.sort(routerDiff);
        System.out.printf(
            Locale.ROOT,
            "per-triple differences: relay p50 %.3f ms, p95 %.3f ms; router p50 %.3f ms,"
                + " p95 %.3f ms; router/relay: p50 %.2fx, p95 %.2fx%n",
            pct(relayDiff, 50) / 1e6,
            pct(relayDiff, 95) / 1e6,
            pct(routerDiff, 50) / 1e6,
            pct(routerDiff, 95) / 1e6,
            pct(routerDiff, 50) / pct(relayDiff, 50),
            pct(routerDiff, 95) / pct(relayDiff, 95));
      }
    } finally {
      if (relay != null) {
        relay.destroy();
        relay.waitFor();
      }
      deployer.destroy(d.endpoint());
    }
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

    Client(int port) throws IOException {
      socket.setTcpNoDelay(true);
      socket.connect(new InetSocketAddress("127.0.0.1", port));
      in = new java.io.BufferedInputStream(socket.getInputStream(), 65536);
      out = socket.getOutputStream();
      byte[] h =
          ("POST /invocations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  + "Content-Length: "
                  + BODY.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII);
      request = Arrays.copyOf(h, h.length + BODY.length);
      System.arraycopy(BODY, 0, request, h.length, BODY.length);
    }

    long ttfbNanos() throws IOException {
      long start = NanoClock.SYSTEM.nanoTime();
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
            throw new IOException("closed inside a chunk");
          }
          if (first == 0) {
            first = NanoClock.SYSTEM.nanoTime();
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
      if (c < 0) {
        throw new IOException("closed");
      }
      return b.toString();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
