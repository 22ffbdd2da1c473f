package dev.speechscale.server;

import java.io.IOException;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Writes one streaming response: waits for the first chunk, commits the 200 with the WAV header
 * glued to the first PCM bytes (or the first PCM/MP3 bytes), then writes each chunk as the engine
 * produces it. A failed write means the client left: the job is cancelled at its next chunk.
 */
final class StreamWriter {
  private final SpeechRuntime runtime;
  private final SynthesisRequest request;
  private final SynthesisJob job;
  private final ChunkBuffer buffer;
  private final Response response;
  private final Callback callback;
  private final long arrivalNanos;
  private final long queuedNanos;
  private boolean committed;

  StreamWriter(
      SpeechRuntime runtime,
      SynthesisRequest request,
      SynthesisJob job,
      ChunkBuffer buffer,
      Response response,
      Callback callback,
      long arrivalNanos,
      long queuedNanos) {
    this.runtime = runtime;
    this.request = request;
    this.job = job;
    this.buffer = buffer;
    this.response = response;
    this.callback = callback;
    this.arrivalNanos = arrivalNanos;
    this.queuedNanos = queuedNanos;
  }

  void run() {
    try (AudioTranscoder transcoder =
        new AudioTranscoder(
            request.format(), runtime.engine.sampleRateHz(), request.sampleRateHz())) {
      while (true) {
        switch (buffer.take(runtime.writerStall())) {
          case ChunkBuffer.Item.Chunk(short[] samples) ->
              send(transcoder.encode(committed ? coalesce(samples) : samples), false);
          case ChunkBuffer.Item.End() -> {
            send(transcoder.finish(), true);
            InvocationsHandler.awaitQuietly(job);
            runtime.metrics.synthesis.recordNanos(job.synthesisNanos());
            runtime.metrics.completed(job.samples());
            callback.succeeded();
            return;
          }
          case ChunkBuffer.Item.Failed(Throwable cause) -> {
            fail(cause);
            return;
          }
          case ChunkBuffer.Item.Idle() -> {
            fail(new EngineException("the engine produced nothing for " + runtime.writerStall()));
            return;
          }
        }
      }
    } catch (IOException e) {
      job.cancel();
      runtime.metrics.streamFailed(StreamFailure.CLIENT_DISCONNECTED);
      callback.failed(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      job.cancel();
      callback.failed(e);
    } catch (RuntimeException e) {
      job.cancel();
      fail(e);
    }
  }

  /**
   * After the first chunk (sent alone, so time to first audio byte is not delayed), whatever the
   * engine has already queued goes out in the same write: fewer, larger writes for the same audio,
   * and less work for every hop downstream.
   */
  private short[] coalesce(short[] first) {
    short[] more = buffer.pollAvailable(COALESCE_SAMPLES - first.length);
    if (more == null) {
      return first;
    }
    short[] out = new short[first.length + more.length];
    System.arraycopy(first, 0, out, 0, first.length);
    System.arraycopy(more, 0, out, first.length, more.length);
    return out;
  }

  /** At most about 0.5 s of 16 kHz audio per coalesced write. */
  static final int COALESCE_SAMPLES = 8192;

  private void send(byte[] bytes, boolean last) throws IOException {
    if (!committed) {
      if (bytes.length == 0 && !last) {
        return; // MP3: LAME is still filling its first frame
      }
      commit();
      byte[] first = bytes;
      if (request.format() == AudioFormat.WAV) {
        first = new byte[WavHeader.BYTES + bytes.length];
        System.arraycopy(WavHeader.streaming(request.sampleRateHz()), 0, first, 0, WavHeader.BYTES);
        System.arraycopy(bytes, 0, first, WavHeader.BYTES, bytes.length);
      }
      HttpIo.write(response, last, first);
      runtime.metrics.ttfab.recordNanos(runtime.ticker.nanoTime() - arrivalNanos);
      return;
    }
    if (bytes.length > 0 || last) {
      HttpIo.write(response, last, bytes);
    }
  }

  private void commit() {
    committed = true;
    response.setStatus(200);
    var headers = response.getHeaders();
    headers.put(HttpHeader.CONTENT_TYPE, request.format().mediaType(request.sampleRateHz()));
    headers.put("X-Request-Id", request.requestId());
    headers.put("X-Characters-Processed", Integer.toString(request.characters()));
    // how long the admitted request waited for its execution slot, on the gate's ticker
    headers.put(InvocationsHandler.QUEUE_WAIT_HEADER, Long.toString(queuedNanos / 1000));
    long engineFirst = job.engineFirstChunkNanos();
    if (engineFirst >= 0) {
      // the engine's own time to its first chunk, so clients can separate serving overhead
      headers.put("X-Engine-First-Chunk-Us", Long.toString(engineFirst / 1000));
    }
    runtime.metrics.response(InvocationsHandler.TRANSPORT, 200);
  }

  private void fail(Throwable cause) {
    StreamFailure reason = StreamFailure.of(cause);
    runtime.metrics.streamFailed(reason);
    if (!committed) {
      int status = reason == StreamFailure.CLIENT_TOO_SLOW ? 500 : reason.status();
      String error = status == 500 ? "synthesis_failed" : reason.code;
      runtime.metrics.response(InvocationsHandler.TRANSPORT, status);
      HttpIo.json(
          response,
          callback,
          status,
          Map.of("error", error, "message", String.valueOf(cause.getMessage())));
      return;
    }
    // after the 200: abort, so the client sees a broken stream instead of a clean short one
    callback.failed(cause);
  }
}
