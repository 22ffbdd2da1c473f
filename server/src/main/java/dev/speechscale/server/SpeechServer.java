package dev.speechscale.server;

import dev.speechscale.admission.GateSnapshot;
import dev.speechscale.platform.NanoClock;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP/WebSocket front of speech-server on Jetty 12's core API: refusals and the small
 * endpoints are answered on the I/O thread, each admitted synthesis runs on its own virtual thread.
 *
 * <p>Lifecycle: {@link #start()} binds and prints the listening line (so a supervisor that passed
 * {@code --port 0} learns the port) while {@code /ping} still answers 503; {@link #attach} hands it
 * the loaded engine; {@link #markReady()} turns {@code /ping} to 200. {@link #shutdown} stops
 * admitting, drains in-flight requests within a bound, then stops Jetty.
 */
public final class SpeechServer implements AutoCloseable {
  /**
   * The stdout line prefix a supervisor scans for: {@code speech-server listening on HOST:PORT}.
   */
  public static final String LISTENING = "speech-server listening on ";

  static final String BIDI_PATH = "/invocations-bidirectional-stream";
  private static final System.Logger LOG = System.getLogger(SpeechServer.class.getName());

  private final ServerConfig config;
  private final ServerMetrics metrics = new ServerMetrics(this::serving);
  private final PrintStream stdout;
  private final NanoClock ticker;
  private final Clock wallClock;
  private final Server jetty;
  private final ServerConnector connector;
  private final java.util.concurrent.ExecutorService virtualThreads;
  private volatile @Nullable SpeechRuntime runtime; // null until attach(engine)
  private volatile boolean ready;
  private volatile boolean warming;

  SpeechServer(ServerConfig config, PrintStream stdout, NanoClock ticker, Clock wallClock) {
    this.config = config;
    this.stdout = stdout;
    this.ticker = ticker;
    this.wallClock = wallClock;
    QueuedThreadPool threads = new QueuedThreadPool();
    threads.setName("speech-server");
    this.virtualThreads = Executors.newVirtualThreadPerTaskExecutor();
    threads.setVirtualThreadsExecutor(virtualThreads);
    this.jetty = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendDateHeader(false);
    this.connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
    connector.setHost(config.host());
    connector.setPort(config.port());
    connector.setIdleTimeout(idleTimeout(config).toMillis());
    jetty.addConnector(connector);
    WebSocketUpgradeHandler websocket =
        WebSocketUpgradeHandler.from(
            jetty,
            container -> {
              container.setMaxTextMessageSize(config.bodies().maxBytes());
              container.setMaxBinaryMessageSize(config.bodies().maxBytes());
              container.setIdleTimeout(idleTimeout(config));
              container.setMaxFrameSize(config.bodies().maxBytes());
              container.setMaxOutgoingFrames(8);
              container.addMapping(BIDI_PATH, (req, resp, cb) -> bidiSession(resp, cb));
            });
    websocket.setHandler(new Router());
    jetty.setHandler(websocket);
    jetty.setStopTimeout(config.drainTimeout().toMillis());
  }

  /**
   * The connection idle timeout: outlives the longest a request may wait ({@code
   * MAX_REQUEST_AGE_S}) so Jetty never times out a request the gate still holds in its queue; a
   * client that leaves sooner is found by {@link DisconnectWatch}. Never below Jetty's usual 30 s.
   */
  static Duration idleTimeout(ServerConfig config) {
    Duration outlivesQueue = config.maxRequestAge().plus(IDLE_MARGIN);
    return outlivesQueue.compareTo(MIN_IDLE) > 0 ? outlivesQueue : MIN_IDLE;
  }

  private static final Duration IDLE_MARGIN = Duration.ofSeconds(4);
  private static final Duration MIN_IDLE = Duration.ofSeconds(30);

  int idleTimeoutMs() {
    return (int) connector.getIdleTimeout();
  }

  /** Binds the port and prints {@value #LISTENING}HOST:PORT; returns the bound port. */
  int start() throws Exception {
    jetty.start();
    int port = connector.getLocalPort();
    synchronized (stdout) {
      stdout.println(LISTENING + config.host() + ":" + port);
      stdout.flush();
    }
    return port;
  }

  int port() {
    return connector.getLocalPort();
  }

  InetSocketAddress address() {
    return new InetSocketAddress(config.host(), port());
  }

  ServerMetrics metrics() {
    return metrics;
  }

  /** Serves requests with this engine from now on. */
  SpeechRuntime attach(SpeechEngine engine) {
    SpeechRuntime attached = new SpeechRuntime(engine, config, metrics, ticker, wallClock);
    this.runtime = attached;
    return attached;
  }

  void markReady() {
    ready = true;
  }

  /**
   * Sends one streaming request to this server over loopback before {@code ready}, so the first
   * real request does not pay for loading and compiling the HTTP, JSON and streaming path (a cold
   * first request took about a second here). Written on a plain socket, not {@code
   * java.net.http.HttpClient}: the client's own start-up (its selector thread, its classes) cost a
   * second and a half of the warm-up stage at half a CPU, and no real request ever needs it
   * (measurements/cold-start.md). Non-fatal: failures are logged.
   *
   * @return the status the request was answered with, or -1 when it failed
   */
  int warmHttpPath() {
    SpeechRuntime current = runtime;
    if (current == null) {
      return -1;
    }
    String host =
        config.host().equals("0.0.0.0") || config.host().equals("::") ? "127.0.0.1" : config.host();
    byte[] body =
        ("{\"text\":\""
                + config.warmupText().replace("\"", "").replace("\\", "")
                + "\",\"request_id\":\"warmup\"}")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    String head =
        "POST /invocations HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + "Content-Length: "
            + body.length
            + "\r\nConnection: close\r\n\r\n";
    warming = true;
    try (java.net.Socket socket = new java.net.Socket(host, port())) {
      socket.setSoTimeout((int) Duration.ofSeconds(60).toMillis());
      var out = socket.getOutputStream();
      out.write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      byte[] reply = socket.getInputStream().readAllBytes(); // Connection: close ends it
      String status =
          new String(
              reply, 0, Math.min(12, reply.length), java.nio.charset.StandardCharsets.US_ASCII);
      int code = status.startsWith("HTTP/1.1 ") ? Integer.parseInt(status.substring(9, 12)) : -1;
      if (code != 200) {
        LOG.log(System.Logger.Level.WARNING, "warm-up request answered {0}", status);
      }
      return code;
    } catch (java.io.IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "warm-up request failed; serving anyway", e);
      return -1;
    } finally {
      warming = false;
    }
  }

  boolean isReady() {
    return ready;
  }

  /**
   * Graceful shutdown: {@code /ping} turns 503, new requests get 503 {@code shutting_down}, and
   * requests in flight get up to {@code drain} to finish before Jetty stops.
   *
   * @return true when every in-flight request finished within the bound
   */
  boolean shutdown(Duration drain) {
    ready = false;
    boolean drained = true;
    SpeechRuntime current = runtime;
    if (current != null) {
      current.gate.stopAdmitting();
      try {
        drained = current.gate.awaitIdle(drain);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        drained = false;
      }
      if (!drained) {
        LOG.log(
            System.Logger.Level.WARNING,
            "{0} requests still in flight after the {1} drain bound; stopping anyway",
            current.gate.inFlight(),
            drain);
      }
    }
    try {
      jetty.stop();
    } catch (Exception e) {
      LOG.log(System.Logger.Level.WARNING, "Jetty did not stop cleanly", e);
    }
    if (current != null) {
      current.close();
    }
    virtualThreads.shutdown();
    return drained;
  }

  @Override
  public void close() {
    shutdown(config.drainTimeout());
  }

  void join() throws InterruptedException {
    jetty.join();
  }

  /** The session's listener, or null after answering the upgrade request with a refusal. */
  private @Nullable Object bidiSession(
      Response response, org.eclipse.jetty.util.Callback callback) {
    SpeechRuntime current = runtime;
    if (current == null || !ready) {
      response.setStatus(503);
      callback.succeeded();
      return null;
    }
    if (current.unhealthy().isPresent()) {
      metrics.rejected("engine_stuck");
      HttpIo.json(
          response,
          callback,
          503,
          Map.of("error", "engine_stuck", "message", current.unhealthy().get()));
      return null;
    }
    if (current.wsSessions() >= config.maxWsSessions()) {
      metrics.rejected("too_many_sessions");
      HttpIo.json(
          response,
          callback,
          503,
          Map.of(
              "error",
              "too_many_sessions",
              "message",
              config.maxWsSessions()
                  + " WebSocket sessions are open (MAX_WS_SESSIONS); retry later or on another"
                  + " instance"),
          Map.of("Retry-After", "1"));
      return null;
    }
    return new BidiSession(current, wsSendTimeout);
  }

  /**
   * How long one outgoing WebSocket frame may wait for the client to read it before the session is
   * closed (1008) as a client that stopped reading.
   */
  private volatile Duration wsSendTimeout = Duration.ofSeconds(30);

  /** Tests shorten the send timeout instead of waiting 30 s for a client that does not read. */
  void wsSendTimeout(Duration timeout) {
    this.wsSendTimeout = timeout;
  }

  /**
   * Routes the plain HTTP paths. It never blocks, so Jetty may run it on the I/O thread: /ping,
   * /stats, /metrics and every refusal (503, 405, 404) are answered there with non-blocking writes,
   * and only an admitted synthesis moves to a virtual thread.
   */
  private final class Router extends Handler.Abstract {
    Router() {
      super(Invocable.InvocationType.NON_BLOCKING);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      long arrival = ticker.nanoTime();
      String path = Request.getPathInContext(request);
      String method = request.getMethod();
      SpeechRuntime current = runtime;
      switch (path) {
        case "/ping" -> {
          if (!method.equals("GET")) {
            return methodNotAllowed(response, callback, "GET");
          }
          var unhealthy =
              current == null ? java.util.Optional.<String>empty() : current.unhealthy();
          if (unhealthy.isPresent()) {
            HttpIo.json(
                response,
                callback,
                503,
                Map.of("error", "engine_stuck", "message", unhealthy.get()));
          } else if (ready) {
            HttpIo.text(response, callback, 200, "text/plain", "OK");
          } else {
            HttpIo.json(response, callback, 503, Map.of("error", "not_ready"));
          }
        }
        case "/invocations" -> {
          if (!method.equals("POST")) {
            return methodNotAllowed(response, callback, "POST");
          }
          if (current == null || !(ready || warming)) {
            metrics.rejected("not_ready");
            metrics.response(InvocationsHandler.TRANSPORT, 503);
            HttpIo.json(
                response,
                callback,
                503,
                Map.of(
                    "error", "not_ready", "message", "the engine is still loading; poll GET /ping"),
                Map.of("Retry-After", "1"));
          } else if (current.unhealthy().isPresent()) {
            metrics.rejected("engine_stuck");
            metrics.response(InvocationsHandler.TRANSPORT, 503);
            HttpIo.json(
                response,
                callback,
                503,
                Map.of("error", "engine_stuck", "message", current.unhealthy().get()),
                Map.of("Retry-After", "1"));
          } else {
            new InvocationsHandler(current)
                .handle(request, response, callback, arrival, virtualThreads);
          }
        }
        case "/metrics" -> {
          ServerMetrics.Exposition scrape =
              metrics.scrape(request.getHeaders().get(HttpHeader.ACCEPT));
          response.setStatus(200);
          response.getHeaders().put(HttpHeader.CONTENT_TYPE, scrape.contentType());
          response.write(true, ByteBuffer.wrap(scrape.body()), callback);
        }
        case "/stats" -> HttpIo.json(response, callback, 200, stats(current));
        default -> HttpIo.json(response, callback, 404, Map.of("error", "not_found", "path", path));
      }
      return true;
    }

    private boolean methodNotAllowed(Response response, Callback callback, String allowed) {
      HttpIo.json(
          response,
          callback,
          405,
          Map.of("error", "method_not_allowed", "allowed", allowed),
          Map.of("Allow", allowed));
      return true;
    }
  }

  /** What {@code /metrics} reads at each scrape: the gate, the engine and readiness. */
  private ServerMetrics.Serving serving() {
    SpeechRuntime current = runtime;
    return current == null
        ? new ServerMetrics.Serving(null, config.engine().cliName(), 0, ready)
        : new ServerMetrics.Serving(
            current.gate.snapshot(), current.engine.name(), current.engine.sampleRateHz(), ready);
  }

  /** The cheap per-second sample for the local platform: one lock, no rendering. */
  private Map<String, Object> stats(@Nullable SpeechRuntime current) {
    Map<String, Object> stats = new LinkedHashMap<>();
    GateSnapshot gate = current == null ? null : current.gate.snapshot();
    stats.put("ready", ready);
    stats.put("engine", current == null ? config.engine().cliName() : current.engine.name());
    stats.put("in_flight", gate == null ? 0 : gate.inFlight());
    stats.put("queued", gate == null ? 0 : gate.queued());
    stats.put("executing", gate == null ? 0 : gate.executing());
    stats.put("streaming", gate == null ? 0 : gate.streaming());
    stats.put("max_queue_depth", gate == null ? config.maxQueueDepth() : gate.maxInFlight());
    stats.put("admitted_total", gate == null ? 0 : gate.admittedTotal());
    stats.put("saturated_total", gate == null ? 0 : gate.saturatedTotal());
    stats.put("shed_total", gate == null ? 0 : gate.shedTotal());
    stats.put("ws_sessions", current == null ? 0 : current.wsSessions());
    stats.put("reading_bodies", current == null ? 0 : current.bodyReaders.reading());
    return stats;
  }
}
