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

  /** How long the writer waits for the engine's next chunk before calling the engine stuck. */
  static final Duration ENGINE_STALL = Duration.ofSeconds(60);

  /** How long a cancelled job may take to reach its next chunk boundary. */
  static final Duration CANCEL_WAIT = Duration.ofSeconds(30);

  private final SpeechRuntime runtime;

  InvocationsHandler(SpeechRuntime runtime) {
    this.runtime = runtime;
  }

  void handle(Request request, Response response, Callback callback, long arrivalNanos) {
    switch (runtime.gate.admit()) {
      case Admission.Saturated(int inFlight, int max) ->
          reject(response, callback, ApiError.saturated(inFlight, max));
      case Admission.ShuttingDown(int inFlight) ->
          reject(
              response,
              callback,
              ApiError.of(
                  503, "shutting_down", "the server is draining; retry on another instance"));
      case Admission.Admitted(Permit permit) -> {
        try (permit) {
          serve(request, response, callback, permit, arrivalNanos);
        }
      }
    }
  }

  private void serve(
      Request request, Response response, Callback callback, Permit permit, long arrivalNanos) {
    byte[] body;
    try {
      var read = HttpIo.readBody(request, runtime.config.maxBodyBytes());
      if (read.isEmpty()) {
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        reject(
            response,
            callback,
            new ApiError(
                413,
                "body_too_large",
                Map.of(
                    "error",
                    "the request body is larger than "
                        + runtime.config.maxBodyBytes()
                        + " bytes (--max-body-bytes); send at most --max-text-chars of text",
                    "field",
                    "body")));
        return;
      }
      body = read.get();
    } catch (IOException | RuntimeException e) {
      // the client hung up (or broke the framing) mid-body: nobody is left to answer
      runtime.metrics.streamFailed(StreamFailure.CLIENT_DISCONNECTED);
      runtime.metrics.rejected("client_disconnected");
      callback.failed(e);
      return;
    }
    SynthesisRequest synthesis;
    switch (runtime.parser.parse(body)) {
      case RequestParser.Parsed.Bad(ApiError error) -> {
        reject(response, callback, error);
        return;
      }
      case RequestParser.Parsed.Ok(SynthesisRequest ok) -> synthesis = ok;
    }
    var stale = runtime.stale(synthesis);
    if (stale.isPresent()) {
      reject(response, callback, stale.get());
      return;
    }
    Turn turn = permit.awaitTurn(runtime.deadlineNanos(synthesis, arrivalNanos));
    runtime.metrics.queueWait.recordNanos(turn.queued().toNanos());
    switch (turn) {
      case Turn.Shed shed -> {
        reject(response, callback, shedError(shed));
        return;
      }
      case Turn.Cancelled cancelled -> {
        callback.failed(new IOException("cancelled while queued"));
        return;
      }
      case Turn.Started started -> {}
    }
    ChunkBuffer buffer = runtime.newBuffer();
    SynthesisJob job = runtime.start(synthesis, permit, buffer);
    try {
      if (synthesis.stream()) {
        new StreamWriter(runtime, synthesis, job, buffer, response, callback, arrivalNanos).run();
      } else {
        buffered(synthesis, job, buffer, response, callback);
      }
    } finally {
      job.cancel();
      awaitQuietly(job);
    }
  }

  private void buffered(
      SynthesisRequest request,
      SynthesisJob job,
      ChunkBuffer buffer,
      Response response,
      Callback callback) {
    ByteArrayOutputStream audio = new ByteArrayOutputStream();
    try (AudioTranscoder transcoder =
        new AudioTranscoder(
            request.format(), runtime.engine.sampleRateHz(), request.sampleRateHz())) {
      while (true) {
        ChunkBuffer.Item item = buffer.take(ENGINE_STALL);
        switch (item) {
          case ChunkBuffer.Item.Chunk(short[] samples) ->
              audio.writeBytes(transcoder.encode(samples));
          case ChunkBuffer.Item.End() -> {
            audio.writeBytes(transcoder.finish());
            job.awaitDone(CANCEL_WAIT);
            sendBuffered(
                request, job, transcoder.outputSamples(), audio.toByteArray(), response, callback);
            return;
          }
          case ChunkBuffer.Item.Failed(Throwable cause) -> {
            failBeforeCommit(response, callback, cause);
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
      Callback callback) {
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

  private void failBeforeCommit(Response response, Callback callback, Throwable cause) {
    runtime.metrics.streamFailed(StreamFailure.ENGINE_ERROR);
    runtime.metrics.response(TRANSPORT, 500);
    HttpIo.json(
        response,
        callback,
        500,
        Map.of("error", "synthesis_failed", "message", String.valueOf(cause.getMessage())));
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
