package dev.speechscale.platform.local;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.Statistic;
import dev.speechscale.platform.SuspendedState;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

/**
 * The supervisor's control API on loopback, JSON over HTTP, for {@code speech-infra} and the local
 * {@code Platform}: {@code GET /status}, {@code GET /metric?...}, {@code POST /suspended}, {@code
 * POST /desired}, {@code POST /shutdown}, and {@code GET /calls} (the calls answered per route and
 * the throttled ones, for measurements; not counted itself). Bad input answers 400 with the field
 * named.
 *
 * <p>Locked to the endpoint's owner: every call carries the per-endpoint secret ({@value
 * #SECRET_HEADER}) that the supervisor writes, 0600, to {@code control.secret} in the endpoint's
 * state directory (403 without it — any other local user or process); the Host header must name
 * loopback and this port (403 — a DNS-rebinding page); a POST must be {@code application/json} (415
 * — a browser's cross-site form post cannot send that without a preflight this server never
 * allows).
 *
 * <p>With {@code local.aws_physics.control_calls_per_s} set, calls above that rate are answered as
 * SageMaker answers them: HTTP 400 with {@code ThrottlingException} "Rate exceeded" ({@link
 * ControlRateLimit}); each minute's count goes to the supervisor's log.
 */
final class ControlServer implements AutoCloseable {
  /** Control requests are rare and short; a few threads answer them even while one is slow. */
  private static final int CONTROL_THREADS = 4;

  static final String SECRET_HEADER = "X-SpeechScale-Control-Secret";

  private final Supervisor supervisor;
  private final HttpServer server;
  private final ExecutorService executor;
  private final byte[] secret;
  private final ControlRateLimit rateLimit;

  /** The state directory's control-rate bucket, shared by every endpoint's supervisor. */
  static final String SHARED_BUCKET = "control-rate.bucket";

  private final Map<String, LongAdder> calls = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> throttles = new ConcurrentHashMap<>();

  /** Creates the API and writes a fresh secret, 0600, to {@code secretFile}. */
  ControlServer(Supervisor supervisor, java.nio.file.Path secretFile) throws IOException {
    this.supervisor = supervisor;
    byte[] random = new byte[32];
    new java.security.SecureRandom().nextBytes(random);
    String hex = java.util.HexFormat.of().formatHex(random);
    LocalState.writeOwnerOnly(secretFile, hex);
    this.secret = hex.getBytes(StandardCharsets.US_ASCII);
    // One bucket for every endpoint of the state directory (the endpoint dir's parent).
    this.rateLimit =
        new ControlRateLimit(
            supervisor.physics().controlCallsPerSecond(),
            java.util.Objects.requireNonNull(
                    secretFile.toAbsolutePath().getParent(), "the endpoint's state directory")
                .resolveSibling(SHARED_BUCKET));
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    // A few platform threads of its own: the control plane must answer whatever the rest of the
    // supervisor's virtual threads are blocked on (see InstanceProcess's log capture).
    this.executor =
        Executors.newFixedThreadPool(
            CONTROL_THREADS, Thread.ofPlatform().daemon().name("control-", 0).factory());
    server.setExecutor(executor);
    server.createContext("/", this::handle);
  }

  int start() {
    server.start();
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdown();
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getPath();
      String method = ex.getRequestMethod();
      Refusal refused = refusal(ex, method);
      if (refused != null) {
        reply(ex, refused.status(), new Views.Error(refused.message()));
        return;
      }
      if ("GET /calls".equals(method + " " + path)) {
        reply(ex, 200, new Views.Calls(sums(calls), sums(throttles)));
        return;
      }
      String route = method + " " + path;
      calls.computeIfAbsent(route, k -> new LongAdder()).increment();
      if (!"/shutdown".equals(path)
          && !rateLimit.tryAcquire(
              Math.multiplyExact(System.currentTimeMillis(), 1_000_000L),
              Math.floorDiv(System.currentTimeMillis(), 60_000L),
              (minute, accepted, throttled) ->
                  supervisor.note(
                      ControlRateLimit.MinuteReport.line(
                          minute, accepted, throttled, rateLimit.callsPerSecond())))) {
        throttles.computeIfAbsent(route, k -> new LongAdder()).increment();
        throttle(ex);
        return;
      }
      try {
        switch (method + " " + path) {
          case "GET /status" -> reply(ex, 200, supervisor.status(Instant.now()));
          case "GET /metric" -> reply(ex, 200, metric(query(ex)));
          case "POST /suspended" -> {
            Views.Suspended s = body(ex, Views.Suspended.class);
            supervisor.setSuspended(
                new SuspendedState(
                    s.dynamicScalingIn(), s.dynamicScalingOut(), s.scheduledScaling()));
            reply(ex, 200, supervisor.scaling());
          }
          case "POST /scheduled-floor" -> {
            supervisor.putFloor(body(ex, Views.Floor.class));
            reply(ex, 200, supervisor.scaling());
          }
          case "POST /scheduled-floor/delete" -> {
            supervisor.deleteFloor(body(ex, Views.FloorName.class).name());
            reply(ex, 200, supervisor.scaling());
          }
          case "POST /desired" -> {
            supervisor.setDesiredDirectly(body(ex, Views.Desired.class).count());
            reply(ex, 200, supervisor.describe());
          }
          case "POST /shutdown" -> {
            reply(ex, 202, new Views.Error("shutting down"));
            supervisor.requestShutdown();
          }
          default -> reply(ex, 404, new Views.Error("no route " + method + " " + path));
        }
      } catch (IllegalArgumentException | IllegalStateException | JacksonException e) {
        reply(ex, 400, new Views.Error(e.getMessage()));
      }
    }
  }

  private static Map<String, Long> sums(Map<String, LongAdder> adders) {
    Map<String, Long> out = new java.util.TreeMap<>();
    adders.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  /**
   * AWS's throttling answer, as its JSON protocols send it: HTTP 400, {@code x-amzn-ErrorType} and
   * {@code __type} ThrottlingException, message "Rate exceeded". {@code /shutdown} is never
   * throttled, so {@code speech-infra destroy} always gets through.
   */
  static final String THROTTLING_TYPE = "ThrottlingException";

  private static void throttle(HttpExchange ex) throws IOException {
    byte[] bytes =
        ("{\"__type\":\"" + THROTTLING_TYPE + "\",\"message\":\"Rate exceeded\"}")
            .getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
    ex.getResponseHeaders().set("x-amzn-ErrorType", THROTTLING_TYPE);
    ex.sendResponseHeaders(400, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private record Refusal(int status, String message) {}

  /** Why this call is refused, or null when it carries the secret, a loopback Host and JSON. */
  private @Nullable Refusal refusal(HttpExchange ex, String method) {
    String host = ex.getRequestHeaders().getFirst("Host");
    int port = server.getAddress().getPort();
    if (!("127.0.0.1:" + port).equals(host) && !("localhost:" + port).equals(host)) {
      return new Refusal(
          403,
          "Host ("
              + host
              + ") must be 127.0.0.1:"
              + port
              + " or localhost:"
              + port
              + "; the control API answers loopback callers only");
    }
    String given = ex.getRequestHeaders().getFirst(SECRET_HEADER);
    if (given == null
        || !java.security.MessageDigest.isEqual(
            secret, given.getBytes(StandardCharsets.US_ASCII))) {
      return new Refusal(
          403,
          SECRET_HEADER
              + " is missing or wrong; send the content of the endpoint's control.secret (0600,"
              + " in its state directory) — speech-infra does");
    }
    String type = ex.getRequestHeaders().getFirst("Content-Type");
    if ("POST".equals(method)
        && (type == null
            || !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json"))) {
      return new Refusal(
          415, "POST needs Content-Type: application/json (got " + type + "); send a JSON body");
    }
    return null;
  }

  private Views.Points metric(Map<String, String> q) {
    MetricQuery query =
        new MetricQuery(
            MetricQuery.Metric.valueOf(required(q, "metric")),
            Statistic.valueOf(required(q, "statistic")),
            Duration.ofMillis(Long.parseLong(required(q, "period_ms"))),
            Instant.ofEpochMilli(Long.parseLong(required(q, "start_ms"))),
            Instant.ofEpochMilli(Long.parseLong(required(q, "end_ms"))));
    MetricSeries s = supervisor.metrics().query(query);
    List<double[]> points =
        s.datapoints().stream().map(d -> new double[] {d.at().toEpochMilli(), d.value()}).toList();
    return new Views.Points(points);
  }

  private static String required(Map<String, String> q, String name) {
    String v = q.get(name);
    if (v == null) {
      throw new IllegalArgumentException("query parameter '" + name + "' is required");
    }
    return v;
  }

  private static Map<String, String> query(HttpExchange ex) {
    Map<String, String> out = new HashMap<>();
    String raw = ex.getRequestURI().getRawQuery();
    if (raw == null) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        out.put(
            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static <T> T body(HttpExchange ex, Class<T> type) throws IOException {
    try (InputStream in = ex.getRequestBody()) {
      return ArtifactCodec.mapper().readValue(in.readNBytes(64 * 1024), type);
    }
  }

  private static void reply(HttpExchange ex, int status, Object body) throws IOException {
    byte[] bytes = ArtifactCodec.mapper().writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }
}
