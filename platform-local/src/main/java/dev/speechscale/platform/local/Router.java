package dev.speechscale.platform.local;

import dev.speechscale.platform.JsonText;
import dev.speechscale.platform.NanoClock;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;
import org.jspecify.annotations.Nullable;

/**
 * The endpoint's front door on loopback, least-outstanding-requests across in-service instances. It
 * serves three faces of the same endpoint:
 *
 * <ul>
 *   <li>the container contract ({@code POST /invocations}, {@code GET /ping}), passed through with
 *       the container's own status, headers and streaming body;
 *   <li>the SageMaker Runtime API ({@code POST /endpoints/{name}/invocations} and {@code
 *       /invocations-response-stream} in AWS event-stream framing), with container errors reported
 *       the way the service reports them (424 ModelError carrying the original status and body), so
 *       an unmodified AWS SDK client with an endpoint override works; and {@code
 *       /invocations-bidirectional-stream}, InvokeEndpointWithBidirectionalStream over HTTP/2 (h2c
 *       on the same port), bridged to an instance's WebSocket ({@link RuntimeBidiStream});
 *   <li>the bidirectional WebSocket, relayed to one instance for the session's life.
 * </ul>
 *
 * <p>Every request counts against its instance from routing until its last byte (the samples of
 * ConcurrentRequestsPerModel); a failure after the 200 ends the stream visibly — an aborted chunked
 * body, or an {@code InternalStreamFailure} event — never as a silent truncation. Handlers run on
 * virtual threads and use blocking I/O.
 */
final class Router implements AutoCloseable {
  static final String BIDI_PATH = "/invocations-bidirectional-stream";
  private static final long BIDI_CONNECT_TIMEOUT_S = 10;
  private static final Pattern RUNTIME =
      Pattern.compile(
          "^/endpoints/([^/]+)/(invocations|invocations-response-stream"
              + "|invocations-bidirectional-stream)$");
  private static final int MAX_BODY_BYTES = 6 * 1024 * 1024;

  private final String endpointName;
  private final Backends backends;
  private final RequestStats stats;
  private final Server jetty;
  private final ServerConnector connector;
  private final HttpClient client;
  private final WebSocketClient wsClient;
  private final java.util.concurrent.atomic.AtomicLong retries =
      new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicInteger wsSessions =
      new java.util.concurrent.atomic.AtomicInteger();
  private volatile int maxWsSessions = MAX_WS_SESSIONS;

  /**
   * Relayed WebSocket sessions open at once, over all instances: {@value} is eight instances' worth
   * of speech-server's own default cap (128 each); past it the upgrade is answered 503.
   */
  static final int MAX_WS_SESSIONS = 1024;

  Router(String endpointName, String host, int port, Backends backends, RequestStats stats) {
    this.endpointName = endpointName;
    this.backends = backends;
    this.stats = stats;
    QueuedThreadPool threads = new QueuedThreadPool();
    threads.setName("router");
    // Platform threads, not virtual ones: each request's thread spends its life blocked in a
    // socket read from the instance, which on a platform thread is one system call; a virtual
    // thread parks, registers with the poller and is rescheduled per read, adding latency to
    // every audio chunk it relays (measured: measurements/router-overhead.md).
    threads.setMaxThreads(4096);
    jetty = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendDateHeader(false);
    // h2c (prior knowledge) beside HTTP/1.1 on the same port: the AWS SDK's HTTP/2 client speaks
    // it to an http:// endpoint override, and InvokeEndpointWithBidirectionalStream needs HTTP/2.
    HTTP2CServerConnectionFactory h2c = new HTTP2CServerConnectionFactory(http);
    h2c.setStreamIdleTimeout(Duration.ofMinutes(10).toMillis());
    connector = new ServerConnector(jetty, new HttpConnectionFactory(http), h2c);
    connector.setHost(host);
    connector.setPort(port);
    jetty.addConnector(connector);
    client = new HttpClient();
    client.setMaxConnectionsPerDestination(4096);
    client.setMaxRequestsQueuedPerDestination(65_536);
    client.setIdleTimeout(Duration.ofSeconds(90).toMillis());
    client.setFollowRedirects(false);
    wsClient = new WebSocketClient(client);
    WebSocketUpgradeHandler ws =
        WebSocketUpgradeHandler.from(
            jetty,
            container -> {
              container.setIdleTimeout(Duration.ofMinutes(10));
              container.setMaxTextMessageSize(MAX_BODY_BYTES);
              container.setMaxBinaryMessageSize(MAX_BODY_BYTES);
              container.addMapping(BIDI_PATH, (req, resp, cb) -> relay(req, resp, cb));
              container.addMapping(
                  "/endpoints/" + endpointName + BIDI_PATH,
                  (req, resp, cb) -> relay(req, resp, cb));
            });
    ws.setHandler(new Routes());
    jetty.setHandler(ws);
  }

  /** Starts listening; returns the bound port. */
  int start() throws Exception {
    client.start();
    wsClient.start();
    jetty.start();
    return connector.getLocalPort();
  }

  int port() {
    return connector.getLocalPort();
  }

  @Override
  public void close() {
    try {
      jetty.stop();
      wsClient.stop();
      client.stop();
    } catch (Exception e) {
      throw new IllegalStateException("router did not stop cleanly: " + e.getMessage(), e);
    }
  }

  /** Requests sent once more to another instance after the first failed without answering. */
  long retries() {
    return retries.get();
  }

  int wsSessions() {
    return wsSessions.get();
  }

  /** Tests lower the session cap instead of opening a thousand sessions. */
  void maxWsSessions(int max) {
    this.maxWsSessions = max;
  }

  /**
   * Accepts the upgrade when an instance is in service and the session cap allows. The instance is
   * chosen, and counted, only when the session opens ({@link WsRelay#onWebSocketOpen}): an upgrade
   * that fails after this point (the client gone before the 101) then never holds an instance's
   * in-flight count that nothing would release.
   */
  private @Nullable Object relay(
      org.eclipse.jetty.websocket.server.ServerUpgradeRequest req,
      org.eclipse.jetty.websocket.server.ServerUpgradeResponse resp,
      Callback cb) {
    if (backends.inService().isEmpty()) {
      stats.status(503);
      Response.writeError(req, resp, cb, 503, "no instance in service");
      return null;
    }
    if (wsSessions.get() >= maxWsSessions) {
      stats.status(503);
      Response.writeError(
          req, resp, cb, 503, maxWsSessions + " relayed WebSocket sessions are open; retry later");
      return null;
    }
    stats.invocation();
    return new WsRelay(backends, wsClient, wsSessions);
  }

  /** The HTTP routes; everything else is 404. */
  private final class Routes extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      String path = Request.getPathInContext(request);
      String method = request.getMethod();
      if ("/ping".equals(path) && HttpMethod.GET.is(method)) {
        int status = backends.inService().isEmpty() ? 503 : 200;
        Responses.json(
            response,
            callback,
            status,
            status == 200 ? "{\"status\":\"ok\"}" : "{\"error\":\"no_instance_in_service\"}");
        return true;
      }
      if ("/invocations".equals(path) && HttpMethod.POST.is(method)) {
        containerInvocation(request, response, callback);
        return true;
      }
      Matcher m = RUNTIME.matcher(path);
      if (m.matches() && HttpMethod.POST.is(method)) {
        if (!m.group(1).equals(endpointName)) {
          Responses.awsError(
              response,
              callback,
              400,
              m.group(2).equals("invocations-bidirectional-stream")
                  ? "InputValidationError"
                  : "ValidationError",
              "Endpoint " + m.group(1) + " of account local not found.");
          return true;
        }
        if (m.group(2).equals("invocations")) {
          runtimeInvocation(request, response, callback, false);
        } else if (m.group(2).equals("invocations-response-stream")) {
          runtimeInvocation(request, response, callback, true);
        } else {
          new RuntimeBidiStream(
                  backends, wsClient, wsSessions, maxWsSessions, stats, MAX_BODY_BYTES)
              .serve(request, response, callback);
        }
        return true;
      }
      Responses.json(
          response,
          callback,
          404,
          "{\"error\":\"not_found\",\"path\":" + JsonText.quoted(path) + "}");
      return true;
    }
  }

  /** Upstream response as it started: status, headers we pass on, and the body stream. */
  private record Upstream(
      int status,
      @Nullable String contentType,
      @Nullable String retryAfter,
      InputStream body,
      long startedNanos,
      java.util.List<java.util.Map.Entry<String, String>> passOn) {}

  /**
   * Sends the request to {@code b} on a kept-alive plain socket and returns once the response head
   * arrived. A pooled connection that ends before any response byte was one the instance closed
   * while idle: the request is sent again on a fresh connection (the instance never saw it). Any
   * other failure — a read timeout above all, where the instance may be synthesizing — is not
   * retried here.
   */
  private Upstream forward(Backend b, byte[] body, String contentType, String accept)
      throws IOException {
    long started = NanoClock.SYSTEM.nanoTime();
    UpstreamConnection c = b.pooled();
    UpstreamConnection.Response r = null;
    if (c != null) {
      try {
        r = c.post("/invocations", body, contentType, accept);
      } catch (UpstreamConnection.NoResponseException stale) {
        c.close();
        c = null;
      } catch (IOException e) {
        c.close();
        throw e;
      }
    }
    if (r == null) {
      c = b.open();
      try {
        r = c.post("/invocations", body, contentType, accept);
      } catch (IOException e) {
        c.close();
        throw e;
      }
    }
    UpstreamConnection conn = Objects.requireNonNull(c); // opened above when the pooled one failed
    InputStream bodyStream =
        new java.io.FilterInputStream(r.body()) {
          private boolean ended;

          @Override
          public int read(byte[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            ended |= n < 0;
            return n;
          }

          @Override
          public void close() {
            if (ended) {
              b.giveBack(conn);
            } else {
              conn.close();
            }
          }
        };
    return new Upstream(
        r.status(), r.contentType(), r.retryAfter(), bodyStream, started, r.passOn());
  }

  /**
   * One request's route: the instance that holds its count, and its response head or the failure
   * that left no response.
   */
  private record Attempt(
      Backend backend, @Nullable Upstream upstream, @Nullable IOException failure) {}

  /**
   * Forwards to {@code first}; when it failed without answering — the connection refused, or closed
   * before any response byte — and nothing has been sent to the client (always the case here: the
   * client is answered only after a response head), the request goes once to another in-service
   * instance. A read timeout is never retried: the instance may be working on it, and the client
   * would wait twice. The returned attempt's backend holds the request's count; the invocation
   * counts once in the router's stats, however many instances were tried.
   */
  private Attempt route(Backend first, byte[] body, Request request) {
    stats.invocation();
    String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    String accept = request.getHeaders().get(HttpHeader.ACCEPT);
    try {
      return new Attempt(first, forward(first, body, type, accept), null);
    } catch (IOException e) {
      boolean unanswered =
          e instanceof java.net.ConnectException
              || e instanceof UpstreamConnection.NoResponseException;
      Optional<Backend> other = unanswered ? backends.acquireOther(first) : Optional.empty();
      if (other.isEmpty()) {
        return new Attempt(first, null, e);
      }
      first.release();
      retries.incrementAndGet();
      try {
        return new Attempt(other.get(), forward(other.get(), body, type, accept), null);
      } catch (IOException again) {
        return new Attempt(other.get(), null, again);
      }
    }
  }

  private void containerInvocation(Request request, Response response, Callback callback)
      throws IOException {
    byte[] body = Responses.readBody(request, MAX_BODY_BYTES);
    if (body == null) {
      Responses.json(response, callback, 413, "{\"error\":\"body_too_large\"}");
      return;
    }
    Optional<Backend> picked = backends.acquire();
    if (picked.isEmpty()) {
      stats.status(503);
      Responses.json(response, callback, 503, "{\"error\":\"no_instance_in_service\"}");
      return;
    }
    invoke(
        route(picked.get(), body, request),
        (b, e) -> instanceFailed(response, callback, b, e),
        (b, up) -> {
          response.setStatus(up.status());
          if (up.contentType() != null) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, up.contentType());
          }
          if (up.retryAfter() != null) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, up.retryAfter());
          }
          // the container's own X- headers (its timing above all: X-Queue-Wait-Us,
          // X-Engine-First-Chunk-Us), as the container contract promises
          for (var h : up.passOn()) {
            response.getHeaders().put(h.getKey(), h.getValue());
          }
          response.getHeaders().put("X-Speechscale-Instance", b.instanceId());
          copy(up, response, callback, false, e -> instanceFailed(response, callback, b, e));
        });
  }

  /** 502 {@code instance_failed}: the instance failed before the router committed a byte. */
  private void instanceFailed(Response response, Callback callback, Backend b, Exception e) {
    stats.status(502);
    Responses.json(
        response,
        callback,
        502,
        "{\"error\":\"instance_failed\",\"instance\":"
            + JsonText.quoted(b.instanceId())
            + ",\"detail\":"
            + JsonText.quoted(String.valueOf(e.getMessage()))
            + "}");
  }

  /** 500 {@code InternalFailure}, as the Runtime API reports an instance that failed. */
  private void runtimeInstanceFailed(Response response, Callback callback, Backend b, Exception e) {
    stats.status(500);
    Responses.awsError(
        response,
        callback,
        500,
        "InternalFailure",
        "The instance " + b.instanceId() + " failed: " + e.getMessage());
  }

  private void runtimeInvocation(
      Request request, Response response, Callback callback, boolean streaming) throws IOException {
    byte[] body = Responses.readBody(request, MAX_BODY_BYTES);
    if (body == null) {
      Responses.awsError(
          response,
          callback,
          413,
          "ValidationError",
          "Request body exceeds " + MAX_BODY_BYTES + " bytes.");
      return;
    }
    Optional<Backend> picked = backends.acquire();
    if (picked.isEmpty()) {
      stats.status(503);
      Responses.awsError(
          response,
          callback,
          503,
          "ServiceUnavailable",
          "No instance of endpoint " + endpointName + " is in service.");
      return;
    }
    invoke(
        route(picked.get(), body, request),
        (b, e) -> runtimeInstanceFailed(response, callback, b, e),
        (b, up) -> {
          if (up.status() / 100 != 2) {
            byte[] original;
            try (InputStream in = up.body()) {
              original = in.readAllBytes();
            }
            Responses.modelError(
                response,
                callback,
                up.status(),
                new String(original, StandardCharsets.UTF_8),
                endpointName,
                b.instanceId());
            return;
          }
          response.setStatus(200);
          response.getHeaders().put("x-Amzn-Invoked-Production-Variant", "AllTraffic");
          if (streaming) {
            response
                .getHeaders()
                .put(HttpHeader.CONTENT_TYPE, "application/vnd.amazon.eventstream");
            response
                .getHeaders()
                .put(
                    "X-Amzn-SageMaker-Content-Type",
                    up.contentType() == null ? "application/octet-stream" : up.contentType());
          } else {
            response
                .getHeaders()
                .put(
                    HttpHeader.CONTENT_TYPE,
                    up.contentType() == null ? "application/octet-stream" : up.contentType());
          }
          copy(
              up,
              response,
              callback,
              streaming,
              e -> runtimeInstanceFailed(response, callback, b, e));
        });
  }

  /** Answers an invocation no instance answered: {@code b} was tried last, {@code e} is why. */
  private interface Failed {
    void reply(Backend b, Exception e);
  }

  /** Answers an invocation from {@code up}, the response of instance {@code b}. */
  private interface Answered {
    void reply(Backend b, Upstream up) throws IOException;
  }

  /**
   * Answers a routed invocation with {@code failed} when no instance answered, else with {@code
   * answered}; the instance is released after.
   */
  private void invoke(Attempt attempt, Failed failed, Answered answered) throws IOException {
    Backend b = attempt.backend();
    try {
      Upstream up = attempt.upstream();
      if (up == null) { // exactly one of upstream and failure is set
        failed.reply(b, Objects.requireNonNull(attempt.failure()));
        return;
      }
      stats.status(up.status());
      answered.reply(b, up);
    } finally {
      b.release();
    }
  }

  /**
   * Copies the upstream body as it arrives. A failure before the first byte was written (the
   * instance died between its response head and its body) is answered by {@code beforeCommit} with
   * a proper error status — failing the callback then would make Jetty answer its own generic 500
   * page. A failure midway ends the response visibly: in event-stream framing with an {@code
   * InternalStreamFailure} event, otherwise by aborting the chunked body.
   */
  private void copy(
      Upstream up,
      Response response,
      Callback callback,
      boolean eventStream,
      java.util.function.Consumer<IOException> beforeCommit) {
    byte[] buffer = new byte[64 * 1024];
    boolean first = true;
    try (InputStream in = up.body()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (n == 0) {
          continue;
        }
        // coalesce what already arrived (never wait for more): fewer writes for the same bytes
        while (n < buffer.length && in.available() > 0) {
          int more = in.read(buffer, n, buffer.length - n);
          if (more < 0) {
            break;
          }
          n += more;
        }
        if (first) {
          stats.firstChunk((NanoClock.SYSTEM.nanoTime() - up.startedNanos()) / 1000);
          first = false;
        }
        byte[] chunk = java.util.Arrays.copyOf(buffer, n);
        write(response, eventStream ? EventStream.payloadPart(chunk) : chunk);
      }
    } catch (IOException e) {
      if (first && !response.isCommitted()) {
        beforeCommit.accept(e);
        return;
      }
      if (eventStream) {
        try {
          write(
              response,
              EventStream.exception(
                  "InternalStreamFailure",
                  "the instance failed while streaming: " + e.getMessage(),
                  null));
          callback.succeeded();
        } catch (IOException ignoredClientGone) {
          callback.failed(ignoredClientGone);
        }
      } else {
        callback.failed(e);
      }
      return;
    }
    callback.succeeded();
  }

  private static void write(Response response, byte[] bytes) throws IOException {
    try (Blocker.Callback cb = Blocker.callback()) {
      response.write(false, ByteBuffer.wrap(bytes), cb);
      cb.block();
    }
  }

  /** Opens {@code b}'s bidirectional session, {@code listener} taking the instance's frames. */
  static Session connectBidi(WebSocketClient client, Session.Listener listener, Backend b)
      throws IOException, InterruptedException, ExecutionException, TimeoutException {
    return client
        .connect(listener, URI.create("ws://" + b.host() + ":" + b.port() + BIDI_PATH))
        .get(BIDI_CONNECT_TIMEOUT_S, TimeUnit.SECONDS);
  }
}
