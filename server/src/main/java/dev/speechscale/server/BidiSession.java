package dev.speechscale.server;

import dev.speechscale.admission.Admission;
import dev.speechscale.admission.Permit;
import dev.speechscale.admission.Turn;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * One WebSocket session on {@code /invocations-bidirectional-stream}, with the published message
 * protocol: the client sends JSON messages (text or binary frames — SageMaker forwards binary) and
 * {@code {"type":"close"}} to end; for each message the server sends {@code synthesis_start}, the
 * audio as binary frames of 16-bit LE mono PCM <em>as each chunk is produced</em> (the published
 * container sent nothing until the whole message was synthesized), then {@code synthesis_complete}
 * with {@code total_duration_s} and {@code elapsed_s}. Problems are {@code error} messages that
 * keep the session open.
 *
 * <p>Every message goes through the same admission gate as HTTP, holding a permit from admission
 * until its last frame is sent. Messages of one session are handled in order by one virtual thread;
 * a session that disconnects cancels its current synthesis at the next chunk.
 *
 * <p>Bounds against abusive clients (issue 11): at most {@code MAX_WS_SESSIONS} sessions are open
 * (checked at the upgrade, which answers 503, and again at open, which closes with 1013); reads
 * stop while {@value #PENDING_MESSAGES} messages wait (back-pressure on the client's sends instead
 * of an unbounded stream of error frames); every outgoing frame is awaited, one at a time, so
 * nothing queues beyond one frame; a client that stops reading fills the request's bounded audio
 * buffer or outlasts the send timeout, and the session is closed with 1008 and disconnected. Every
 * way a session ends — close message, close frame, abrupt TCP close, oversize message (Jetty closes
 * with 1009), idle timeout, send failure — runs {@link #closed()}, which cancels the synthesis,
 * gives a queued place up and releases the session's count exactly once.
 */
public final class BidiSession implements Session.Listener {
  static final String TRANSPORT = "websocket";
  static final int PENDING_MESSAGES = 16;

  /** Close code for a client that stops reading or breaks the protocol's bounds (RFC 6455). */
  static final int CLIENT_TOO_SLOW_CLOSE = StatusCode.POLICY_VIOLATION;

  private static final String POISON = "\u0000close";
  private static final String INVALID_UTF8 = "\u0000utf8";

  private final SpeechRuntime runtime;
  private final Duration sendTimeout;
  private final BlockingQueue<String> inbox = new ArrayBlockingQueue<>(PENDING_MESSAGES);
  private final AtomicBoolean demandWithheld = new AtomicBoolean();
  private final AtomicBoolean counted = new AtomicBoolean();
  private volatile @Nullable Session session; // set by onWebSocketOpen, Jetty's first call
  private volatile @Nullable SynthesisJob current; // the message being synthesized, if any
  private volatile @Nullable Permit waiting; // the permit waiting in the queue, if any
  private volatile boolean open = true;

  BidiSession(SpeechRuntime runtime, Duration sendTimeout) {
    this.runtime = runtime;
    this.sendTimeout = sendTimeout;
  }

  @Override
  public void onWebSocketOpen(Session session) {
    this.session = session;
    if (!runtime.openSession()) {
      open = false;
      runtime.metrics.rejected("too_many_sessions");
      session.close(
          StatusCode.TRY_AGAIN_LATER,
          "more than " + runtime.config.maxWsSessions() + " sessions (MAX_WS_SESSIONS)",
          Callback.NOOP);
      return;
    }
    counted.set(true);
    Thread.ofVirtual().name("ws-session").start(this::loop);
    session.demand();
  }

  @Override
  public void onWebSocketText(String message) {
    enqueue(message);
  }

  @Override
  public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
    String message;
    try {
      message =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(payload)
              .toString();
    } catch (CharacterCodingException e) {
      message = INVALID_UTF8;
    }
    callback.succeed();
    enqueue(message);
  }

  @Override
  public void onWebSocketPing(ByteBuffer payload) {
    session().demand(); // the pong is Jetty's; keep reading
  }

  @Override
  public void onWebSocketPong(ByteBuffer payload) {
    session().demand();
  }

  /** The open session: every frame, and the loop, come after {@link #onWebSocketOpen}. */
  private Session session() {
    Session s = session;
    if (s == null) {
      throw new IllegalStateException(
          "WebSocket session used before onWebSocketOpen; Jetty opens a session before any frame");
    }
    return s;
  }

  @Override
  public void onWebSocketClose(int statusCode, String reason) {
    closed();
  }

  @Override
  public void onWebSocketError(Throwable cause) {
    closed();
  }

  /** The session takes no further request and gives up the one it is synthesizing. */
  private void stop() {
    open = false;
    SynthesisJob job = current;
    if (job != null) {
      job.cancel();
    }
  }

  private void closed() {
    stop();
    Permit queued = waiting;
    if (queued != null) {
      queued.abandonWhileQueued(); // the client left while its request waits: give the place up
    }
    inbox.clear();
    boolean offered = inbox.offer(POISON);
    assert offered : "inbox was just cleared";
    if (counted.compareAndSet(true, false)) {
      runtime.closeSession();
    }
  }

  /**
   * Queues a message and asks for the next frame only while the inbox has room: a client that sends
   * faster than messages are synthesized is slowed down by TCP, not answered with error frames.
   */
  private void enqueue(String message) {
    if (!inbox.offer(message)) {
      // only after the session ended (the poison took the last place): nothing reads any more
      return;
    }
    if (inbox.remainingCapacity() > 0) {
      session().demand();
      return;
    }
    demandWithheld.set(true);
    if (inbox.remainingCapacity() > 0 && demandWithheld.compareAndSet(true, false)) {
      session().demand(); // the loop took one between the offer and the flag
    }
  }

  private void loop() {
    try {
      while (open) {
        String message = inbox.take();
        if (demandWithheld.compareAndSet(true, false)) {
          session().demand();
        }
        if (POISON.equals(message) || !handle(message)) {
          break;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      Session s = session;
      if (s != null && s.isOpen()) {
        s.close(StatusCode.NORMAL, "session ended", Callback.NOOP);
      }
    }
  }

  /** Handles one message; false ends the session. */
  private boolean handle(String message) {
    long arrival = runtime.ticker.nanoTime();
    if (INVALID_UTF8.equals(message)) {
      return send(error("unknown", "invalid_request", "the message is not valid UTF-8 JSON", null));
    }
    JsonNode root;
    try {
      root = RequestParser.JSON.readTree(message);
    } catch (JacksonException e) {
      return send(error("unknown", "invalid_request", "the message is not valid JSON", "body"));
    }
    if (root != null && root.isObject() && "close".equals(root.path("type").asString(""))) {
      session().close(StatusCode.NORMAL, "close requested", Callback.NOOP);
      return false;
    }
    String requestId =
        root != null && root.isObject() ? root.path("request_id").asString("unknown") : "unknown";
    if (root != null
        && root.isObject()
        && root.hasNonNull("format")
        && !"pcm".equals(root.get("format").asString(""))) {
      return reject(
          requestId, ApiError.badField("format", "format on the WebSocket is always pcm; omit it"));
    }
    SynthesisRequest request;
    switch (runtime.parser.parse(root)) {
      case RequestParser.Parsed.Bad(ApiError e) -> {
        return reject(requestId, e);
      }
      case RequestParser.Parsed.Ok(SynthesisRequest ok) -> request = ok;
    }
    var stale = runtime.stale(request);
    if (stale.isPresent()) {
      return reject(requestId, stale.get());
    }
    var unhealthy = runtime.unhealthy();
    if (unhealthy.isPresent()) {
      return reject(requestId, ApiError.of(503, "engine_stuck", unhealthy.get()));
    }
    return switch (runtime.gate.admit()) {
      case Admission.Saturated(int inFlight, int max) ->
          reject(requestId, ApiError.saturated(inFlight, max));
      case Admission.ShuttingDown(int inFlight) ->
          reject(requestId, ApiError.of(503, "shutting_down", "the server is draining"));
      case Admission.Admitted(Permit permit) -> {
        try (permit) {
          yield synthesize(request, permit, arrival);
        }
      }
    };
  }

  private boolean synthesize(SynthesisRequest request, Permit permit, long arrival) {
    Turn turn;
    waiting = permit;
    if (!open) {
      permit.abandonWhileQueued(); // closed before closed() could see this permit
    }
    try {
      turn = permit.awaitTurn(runtime.deadlineNanos(request, arrival));
    } finally {
      waiting = null;
    }
    runtime.metrics.queueWait.recordNanos(turn.queued().toNanos());
    switch (turn) {
      case Turn.Shed shed -> {
        return reject(request.requestId(), InvocationsHandler.shedError(shed));
      }
      case Turn.Cancelled cancelled -> {
        return false;
      }
      case Turn.Started started -> {}
    }
    Map<String, Object> start = new LinkedHashMap<>();
    start.put("type", "synthesis_start");
    start.put("request_id", request.requestId());
    if (!send(start)) {
      return false;
    }
    ChunkBuffer buffer = runtime.newBuffer();
    SynthesisJob job = runtime.start(request, permit, buffer);
    current = job;
    try (AudioTranscoder pcm =
        new AudioTranscoder(
            AudioFormat.PCM, runtime.engine.sampleRateHz(), request.sampleRateHz())) {
      boolean first = true;
      while (true) {
        switch (buffer.take(runtime.writerStall())) {
          case ChunkBuffer.Item.Chunk(short[] samples) -> {
            if (!sendBinary(pcm.encode(samples))) {
              runtime.metrics.streamFailed(StreamFailure.CLIENT_DISCONNECTED);
              return false;
            }
            if (first) {
              first = false;
              runtime.metrics.ttfab.recordNanos(runtime.ticker.nanoTime() - arrival);
            }
          }
          case ChunkBuffer.Item.End() -> {
            byte[] tail = pcm.finish();
            if (tail.length > 0 && !sendBinary(tail)) {
              return false;
            }
            InvocationsHandler.awaitQuietly(job);
            runtime.metrics.synthesis.recordNanos(job.synthesisNanos());
            runtime.metrics.completed(job.samples());
            runtime.metrics.response(TRANSPORT, 200);
            Map<String, Object> done = new LinkedHashMap<>();
            done.put("type", "synthesis_complete");
            done.put("request_id", request.requestId());
            done.put(
                "total_duration_s", round3(pcm.outputSamples() / (double) request.sampleRateHz()));
            done.put("elapsed_s", round3((runtime.ticker.nanoTime() - arrival) / 1e9));
            return send(done);
          }
          case ChunkBuffer.Item.Failed(Throwable cause) -> {
            StreamFailure reason = StreamFailure.of(cause);
            runtime.metrics.streamFailed(reason);
            if (reason == StreamFailure.CLIENT_TOO_SLOW) {
              abort("client_too_slow: audio waiting passed --max-buffered-bytes; read faster");
              return false;
            }
            return send(
                error(request.requestId(), reason.code, String.valueOf(cause.getMessage()), null));
          }
          case ChunkBuffer.Item.Idle() -> {
            runtime.metrics.streamFailed(StreamFailure.ENGINE_ERROR);
            return send(error(request.requestId(), "engine_error", "the engine stalled", null));
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      job.cancel();
      InvocationsHandler.awaitQuietly(job);
      current = null;
    }
  }

  private boolean reject(String requestId, ApiError error) {
    runtime.metrics.rejected(error.reason());
    runtime.metrics.response(TRANSPORT, error.status());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", "error");
    body.put("request_id", requestId);
    body.put("status", error.status());
    error.body().forEach((k, v) -> body.put(k.equals("error") ? "error" : k, v));
    body.putIfAbsent("message", error.error());
    return send(body);
  }

  private static Map<String, Object> error(
      String requestId, String code, String message, @Nullable String field) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", "error");
    body.put("request_id", requestId);
    body.put("error", code);
    body.put("message", message);
    if (field != null) {
      body.put("field", field);
    }
    return body;
  }

  private static double round3(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  private boolean send(Map<String, ?> message) {
    Session s = session();
    return await(f -> s.sendText(RequestParser.JSON.writeValueAsString(message), f));
  }

  private boolean sendBinary(byte[] bytes) {
    if (bytes.length == 0) {
      return true;
    }
    Session s = session();
    return await(f -> s.sendBinary(ByteBuffer.wrap(bytes), f));
  }

  /**
   * Ends a session whose client does not read: stops its synthesis, sends close 1008 with the
   * reason and disconnects, since a client that reads nothing never reads the close frame either.
   */
  private void abort(String reason) {
    stop();
    Session s = session;
    if (s != null) {
      s.close(CLIENT_TOO_SLOW_CLOSE, reason, Callback.from(s::disconnect, x -> s.disconnect()));
      CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS).execute(s::disconnect);
    }
  }

  private boolean await(java.util.function.Consumer<Callback> send) {
    if (!open) {
      return false;
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    send.accept(Callback.from(() -> done.complete(null), done::completeExceptionally));
    try {
      done.get(sendTimeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      abort("client_too_slow: a frame waited " + sendTimeout.toSeconds() + " s to be read");
      return false;
    } catch (ExecutionException e) {
      // completeExceptionally takes no null: the cause is what Jetty failed the send with
      Throwable cause = Objects.requireNonNullElse(e.getCause(), e);
      abort("send failed: " + cause.getClass().getSimpleName());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
