package dev.speechscale.server;

import dev.speechscale.admission.Admission;
import dev.speechscale.admission.Permit;
import dev.speechscale.admission.Turn;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.jspecify.annotations.Nullable;

/**
 * {@code POST /invocations}: admit, read and validate the body, wait for a slot, then stream (or
 * buffer) the audio. The permit is held in try-with-resources, so every path — malformed body,
 * stale request, shed, engine failure, client gone — releases it exactly once.
 *
 * <p>Nothing is committed before the first audio chunk exists: until then any failure is still an
 * ordinary JSON error. After the 200 a failure aborts the chunked response without its terminating
 * chunk, which every HTTP client reports as an error (curl: exit 18; SageMaker: ModelStreamError)
 * rather than as a clean, silently truncated end.
 */
final class InvocationsHandler {
  static final String TRANSPORT = "http";

  /**
   * Microseconds the request waited for an execution slot after admission (the value the {@code
   * queue_wait} histogram records), on every 200, so a client can split its time to first audio
   * into queue, engine and serving overhead.
   */
  static final String QUEUE_WAIT_HEADER = "X-Queue-Wait-Us";

  /** How long a cancelled job may take to reach its next chunk boundary. */
  static final Duration CANCEL_WAIT = Duration.ofSeconds(30);

  /** An oversized body up to this many times the bound is read and discarded before the 413. */
  static final long DRAIN_FACTOR = 16;

  private final SpeechRuntime runtime;

  InvocationsHandler(SpeechRuntime runtime) {
    this.runtime = runtime;
  }

  /**
   * Reads the body first and admits only a whole one, so a client that trickles its body holds no
   * place in the gate (issue 37: two such connections used to take a two-place gate for the body
   * deadline, then the next two). A body that came with its headers — the common case — is taken
   * here on the I/O thread without blocking, then admitted at once; a refusal then costs no thread.
   * A body still on its way is refused at once when the gate is full (it could not be admitted
   * anyway), and otherwise takes one of {@code MAX_BODY_READERS} reader places and is read on a
   * virtual thread within {@code BODY_READ_TIMEOUT_S}; with every place taken, the oldest read is
   * answered 408 and closed to make room ({@link BodyReaders} says why evict, not refuse). So a
   * stream of trickling connections costs at most that many virtual threads and that many bodies'
   * bytes, and never a gate place.
   *
   * <p>An admitted request that finds a free engine slot is validated and started right where it
   * was admitted: the engine begins without waiting for another thread, and the writer's virtual
   * thread starts while the engine works on the first chunk. Waiting in the queue happens on a
   * virtual thread. Whichever thread holds the permit last closes it.
   */
  void handle(
      Request request,
      Response response,
      Callback callback,
      long arrivalNanos,
      java.util.concurrent.Executor blocking) {
    HttpIo.Prefix prefix;
    try {
      prefix = HttpIo.readAvailable(request, runtime.config.bodies().maxBytes());
    } catch (RuntimeException e) {
      clientGone(callback, e);
      return;
    }
    if (prefix.complete()) {
      admit(prefix.bytes(), request, response, callback, arrivalNanos, blocking);
      return;
    }
    var refused = runtime.gate.refuseIfFull(); // it could not be admitted now: say so at once
    if (refused.isPresent()) {
      refuse(refused.get(), request, response, callback);
      return;
    }
    BodyReaders.Reader reader = runtime.bodyReaders.start(request);
    try {
      blocking.execute(() -> {
        byte @Nullable [] body;
        try (reader) {
          body = readRest(request, response, callback, prefix.bytes(), reader);
        }
        if (body != null) {
          admit(body, request, response, callback, arrivalNanos, Runnable::run);
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      reader.close();
      callback.failed(e);
    }
  }

  /**
   * Asks the gate for a place for a request whose whole body is here. {@code blocking} runs what
   * may block: a virtual thread's executor on the I/O thread, or the calling thread when it is
   * already one.
   */
  private void admit(
      byte[] body,
      Request request,
      Response response,
      Callback callback,
      long arrivalNanos,
      java.util.concurrent.Executor blocking) {
    switch (runtime.gate.admit()) {
      case Admission.Refusal refusal -> refuse(refusal, request, response, callback);
      case Admission.Admitted(Permit permit) ->
          admitted(body, request, response, callback, permit, arrivalNanos, blocking);
    }
  }

  /** 503 without reading what is left of the body; the connection closes if any is left. */
  private void refuse(
      Admission.Refusal refusal, Request request, Response response, Callback callback) {
    closeUnlessBodyConsumed(request, response);
    switch (refusal) {
      case Admission.Saturated(int inFlight, int max) ->
          rejectSaturated(response, callback, inFlight, max);
      case Admission.ShuttingDown(int inFlight) ->
          reject(
              response,
              callback,
              ApiError.of(
                  503, "shutting_down", "the server is draining; retry on another instance"));
    }
  }

  private void admitted(
      byte[] body,
      Request request,
      Response response,
      Callback callback,
      Permit permit,
      long arrivalNanos,
      java.util.concurrent.Executor blocking) {
    SynthesisRequest synthesis = validated(body, response, callback);
    if (synthesis == null) {
      permit.close();
      return;
    }
    var now = permit.tryTurn(runtime.deadlineNanos(synthesis, arrivalNanos));
    if (now.isEmpty()) {
      onVirtualThread(
          blocking,
          permit,
          callback,
          null,
          () -> queueAndRespond(synthesis, request, response, callback, permit, arrivalNanos));
      return;
    }
    if (!started(now.get(), response, callback)) {
      permit.close();
      return;
    }
    long queuedNanos = now.get().queued().toNanos();
    ChunkBuffer buffer = runtime.newBuffer();
    SynthesisJob job = runtime.start(synthesis, permit, buffer);
    StartedJob started =
        new StartedJob(synthesis, job, buffer, response, callback, arrivalNanos, queuedNanos);
    onVirtualThread(blocking, permit, callback, job, () -> respond(started));
  }

  /** Runs {@code work} on a virtual thread that owns the permit from then on and closes it. */
  private static void onVirtualThread(
      java.util.concurrent.Executor blocking,
      Permit permit,
      Callback callback,
      @Nullable SynthesisJob started,
      Runnable work) {
    try {
      blocking.execute(() -> {
        try (permit) {
          work.run();
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      if (started != null) {
        started.cancel(); // stops at its next chunk; nobody is left to read it
      }
      permit.close();
      callback.failed(e);
    }
  }

  /**
   * The rest of a body that did not come with its headers, read on a virtual thread within {@code
   * BODY_READ_TIMEOUT_S}; null after answering 413 (too large), 408 (too slow) or a client that
   * left.
   */
  private byte @Nullable [] readRest(
      Request request,
      Response response,
      Callback callback,
      byte[] prefix,
      BodyReaders.Reader reader) {
    ServerConfig.Bodies bodies = runtime.config.bodies();
    java.util.concurrent.atomic.AtomicBoolean tooSlow =
        new java.util.concurrent.atomic.AtomicBoolean();
    var bound =
        request
            .getComponents()
            .getScheduler()
            .schedule(
                () -> {
                  tooSlow.set(true);
                  request.fail(
                      new java.util.concurrent.TimeoutException(
                          "the body did not arrive within " + bodies.readTimeout()));
                },
                bodies.readTimeout().toMillis(),
                java.util.concurrent.TimeUnit.MILLISECONDS);
    try {
      HttpIo.Body read;
      try {
        read =
            HttpIo.readBody(request, prefix, bodies.maxBytes(), DRAIN_FACTOR * bodies.maxBytes());
      } finally {
        bound.cancel();
      }
      byte[] within = read.bytes();
      if (within == null) { // too large
        if (!read.drained()) {
          response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
        reject(
            response,
            callback,
            ApiError.badField(
                    "body",
                    "the request body is larger than "
                        + bodies.maxBytes()
                        + " bytes (--max-body-bytes); send at most --max-text-chars of text")
                .withStatus(413, "body_too_large"));
      }
      return within;
    } catch (IOException | RuntimeException e) {
      if (!reader.evicted() && !tooSlow.get()) {
        clientGone(callback, e);
        return null;
      }
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
      String why =
          reader.evicted()
              ? "was still arriving when "
                  + bodies.maxReaders()
                  + " newer bodies were being read (MAX_BODY_READERS), and the oldest read gives way"
              : "did not arrive within "
                  + String.format(Locale.ROOT, "%.1f", bodies.readTimeout().toMillis() / 1000.0)
                  + " s (BODY_READ_TIMEOUT_S)";
      reject(
          response,
          callback,
          ApiError.of(
              408, "body_too_slow", "the request body " + why + "; send the whole body at once"));
      return null;
    }
  }

  /**
   * The client hung up (or broke the framing) mid-body: nobody is left to answer. The failure goes
   * to Jetty as an {@link org.eclipse.jetty.io.EofException}, which Jetty treats as the quiet,
   * normal end of a connection instead of logging a warning and a stack trace per hang-up.
   */
  private void clientGone(Callback callback, Throwable cause) {
    runtime.metrics.streamFailed(StreamFailure.CLIENT_DISCONNECTED);
    runtime.metrics.rejected("client_disconnected");
    callback.failed(
        cause instanceof org.eclipse.jetty.io.EofException
            ? cause
            : new org.eclipse.jetty.io.EofException(cause));
  }

  /** The parsed request, or null after answering a bad or stale one. Never blocks. */
  private @Nullable SynthesisRequest validated(byte[] body, Response response, Callback callback) {
    SynthesisRequest synthesis;
    switch (runtime.parser.parse(body)) {
      case RequestParser.Parsed.Bad(ApiError error) -> {
        reject(response, callback, error);
        return null;
      }
      case RequestParser.Parsed.Ok(SynthesisRequest ok) -> synthesis = ok;
    }
    var stale = runtime.stale(synthesis);
    if (stale.isPresent()) {
      reject(response, callback, stale.get());
      return null;
    }
    return synthesis;
  }

  /**
   * Waits for a slot while watching the connection: a client that hangs up meanwhile gives its
   * place up at once (Jetty itself would notice only at the idle timeout).
   */
  private void queueAndRespond(
      SynthesisRequest synthesis,
      Request request,
      Response response,
      Callback callback,
      Permit permit,
      long arrivalNanos) {
    Turn turn;
    try (DisconnectWatch.Watch watch =
        runtime.watchDisconnect(request, permit::abandonWhileQueued)) {
      turn = permit.awaitTurn(runtime.deadlineNanos(synthesis, arrivalNanos));
    }
    if (!started(turn, response, callback)) {
      return;
    }
    ChunkBuffer buffer = runtime.newBuffer();
    SynthesisJob job = runtime.start(synthesis, permit, buffer);
    respond(
        new StartedJob(
            synthesis, job, buffer, response, callback, arrivalNanos, turn.queued().toNanos()));
  }

  /** Records the wait; true when the turn started, else the request was answered. Never blocks. */
  private boolean started(Turn turn, Response response, Callback callback) {
    runtime.metrics.queueWait.recordNanos(turn.queued().toNanos());
    return switch (turn) {
      case Turn.Shed shed -> {
        reject(response, callback, shedError(shed));
        yield false;
      }
      case Turn.Cancelled cancelled -> {
        clientGone(callback, new IOException("the client left while queued"));
        yield false;
      }
      case Turn.Started started -> true;
    };
  }

  /**
   * Streams or buffers the audio of a started job; on a virtual thread (it blocks on writes). Its
   * {@link StartedJob#queuedNanos()}, how long the request waited for its execution slot (the
   * gate's ticker), is sent as {@code X-Queue-Wait-Us}.
   */
  private void respond(StartedJob started) {
    try {
      if (started.request().stream()) {
        new StreamWriter(runtime, started).run();
      } else {
        buffered(started);
      }
    } finally {
      started.job().cancel();
      awaitQuietly(started.job());
    }
  }

  private void buffered(StartedJob started) {
    SynthesisRequest request = started.request();
    SynthesisJob job = started.job();
    Response response = started.response();
    Callback callback = started.callback();
    ByteArrayOutputStream audio = new ByteArrayOutputStream();
    try (AudioTranscoder transcoder =
        new AudioTranscoder(
            request.format(), runtime.engine.sampleRateHz(), request.sampleRateHz())) {
      while (true) {
        ChunkBuffer.Item item = started.buffer().take(runtime.writerStall());
        switch (item) {
          case ChunkBuffer.Item.Chunk(short[] samples) -> {
            audio.writeBytes(transcoder.encode(samples));
            if (audio.size() > runtime.config.maxBufferedBytes()) {
              job.cancel(); // stops at its next chunk; the slot comes back when it returns
              audioTooLarge(response, callback);
              return;
            }
          }
          case ChunkBuffer.Item.End() -> {
            audio.writeBytes(transcoder.finish());
            job.awaitDone(CANCEL_WAIT);
            sendBuffered(
                request,
                job,
                transcoder.outputSamples(),
                audio.toByteArray(),
                response,
                callback,
                started.queuedNanos());
            return;
          }
          case ChunkBuffer.Item.Failed(Throwable cause) -> {
            if (StreamFailure.of(cause) == StreamFailure.CLIENT_TOO_SLOW) {
              // buffered, nobody reads but this thread: the audio outgrew the bound, not a client
              audioTooLarge(response, callback);
            } else {
              failBeforeCommit(response, callback, cause);
            }
            return;
          }
          case ChunkBuffer.Item.Idle() -> {
            failBeforeCommit(response, callback, new EngineException("the engine stalled"));
            return;
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      callback.failed(e);
    } catch (RuntimeException e) {
      failBeforeCommit(response, callback, e);
    }
  }

  private void sendBuffered(
      SynthesisRequest request,
      SynthesisJob job,
      long outputSamples,
      byte[] audio,
      Response response,
      Callback callback,
      long queuedNanos) {
    double durationS = outputSamples / (double) request.sampleRateHz();
    double inferenceS = job.synthesisNanos() / 1e9;
    byte[] payload = audio;
    if (request.format() == AudioFormat.WAV) {
      payload = new byte[WavHeader.BYTES + audio.length];
      System.arraycopy(
          WavHeader.sized(request.sampleRateHz(), audio.length), 0, payload, 0, WavHeader.BYTES);
      System.arraycopy(audio, 0, payload, WavHeader.BYTES, audio.length);
    }
    response.setStatus(200);
    var headers = response.getHeaders();
    headers.put(HttpHeader.CONTENT_TYPE, request.format().mediaType(request.sampleRateHz()));
    headers.put("X-Audio-Duration", String.format(Locale.ROOT, "%.3f", durationS));
    headers.put("X-Inference-Time-Ms", Long.toString(Math.round(inferenceS * 1000)));
    headers.put(
        "X-RTF", durationS > 0 ? String.format(Locale.ROOT, "%.3f", inferenceS / durationS) : "0");
    headers.put("X-Characters-Processed", Integer.toString(request.characters()));
    headers.put("X-Request-Id", request.requestId());
    headers.put(QUEUE_WAIT_HEADER, Long.toString(queuedNanos / 1000));
    runtime.metrics.synthesis.recordNanos(job.synthesisNanos());
    runtime.metrics.response(TRANSPORT, 200);
    try {
      HttpIo.write(response, true, payload); // blocking: the request stays in flight until sent
      runtime.metrics.completed(job.samples());
      callback.succeeded();
    } catch (IOException e) {
      runtime.metrics.streamFailed(StreamFailure.CLIENT_DISCONNECTED);
      callback.failed(e);
    }
  }

  /**
   * 413: a buffered answer ({@code "stream": false}) would hold more audio than {@code
   * --max-buffered-bytes}: the audio gathered so far, or the audio the engine produced faster than
   * this thread gathered it.
   */
  private void audioTooLarge(Response response, Callback callback) {
    reject(
        response,
        callback,
        ApiError.of(
            413,
            "audio_too_large",
            "the buffered audio passed "
                + runtime.config.maxBufferedBytes()
                + " bytes (--max-buffered-bytes); send \"stream\": true or shorter text"));
  }

  /**
   * An answer before anything was committed: 413 {@code audio_cap_exceeded}, 503 {@code
   * engine_stuck}, else 500 {@code synthesis_failed}, each with the cause's message.
   */
  private void failBeforeCommit(Response response, Callback callback, Throwable cause) {
    StreamFailure reason = StreamFailure.of(cause);
    if (reason == StreamFailure.CLIENT_DISCONNECTED || reason == StreamFailure.CLIENT_TOO_SLOW) {
      reason = StreamFailure.ENGINE_ERROR;
    }
    runtime.metrics.streamFailed(reason);
    int status = reason.status();
    runtime.metrics.response(TRANSPORT, status);
    HttpIo.json(
        response,
        callback,
        status,
        Map.of(
            "error",
            status == 500 ? "synthesis_failed" : reason.code,
            "message",
            String.valueOf(cause.getMessage())),
        status == 503 ? Map.of("Retry-After", "1") : Map.of());
  }

  /**
   * A refusal answers without reading the body. What has already arrived is discarded; if more is
   * still on its way, the connection cannot carry another request, so the reply says {@code
   * Connection: close}. Without it the server closed silently after the reply and a keep-alive
   * client's next request on that connection failed with no bytes at all.
   */
  private static void closeUnlessBodyConsumed(Request request, Response response) {
    if (!request.consumeAvailable()) {
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
    }
  }

  /**
   * The load-shedding fast path: no JSON library, no body read, one write. It is the answer a
   * saturated instance gives most often, so its cost bounds how much overload one core absorbs.
   */
  private void rejectSaturated(Response response, Callback callback, int inFlight, int max) {
    runtime.metrics.rejected("queue_saturated");
    runtime.metrics.response(TRANSPORT, 503);
    response.setStatus(503);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
    String body =
        "{\"error\":\"queue_saturated\",\"queue_depth\":"
            + inFlight
            + ",\"max_queue_depth\":"
            + max
            + "}\n";
    response.write(
        true,
        java.nio.ByteBuffer.wrap(body.getBytes(java.nio.charset.StandardCharsets.US_ASCII)),
        callback);
  }

  private void reject(Response response, Callback callback, ApiError error) {
    runtime.metrics.rejected(error.reason());
    runtime.metrics.response(TRANSPORT, error.status());
    Map<String, String> headers = error.status() == 503 ? Map.of("Retry-After", "1") : Map.of();
    HttpIo.json(response, callback, error.status(), error.body(), headers);
  }

  static ApiError shedError(Turn.Shed shed) {
    return new ApiError(
        503,
        "deadline_shed",
        Map.of(
            "error",
            "deadline_shed",
            "message",
            "shed before starting: its first byte could not arrive within MAX_REQUEST_AGE_S",
            "queued_ms",
            shed.queued().toMillis()));
  }

  static void awaitQuietly(SynthesisJob job) {
    try {
      job.awaitDone(CANCEL_WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
