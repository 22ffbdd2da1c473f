package dev.speechscale.server;

import java.io.IOException;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;

/**
 * Writes one streaming response: waits for the first chunk, commits the 200 with the WAV header
 * glued to the first PCM bytes (or the first PCM/MP3 bytes), then writes each chunk as the engine
 * produces it. A failed write means the client left: the job is cancelled at its next chunk.
 */
final class StreamWriter {
  private final SpeechRuntime runtime;
  private final StartedJob started;
  private boolean committed;

  StreamWriter(SpeechRuntime runtime, StartedJob started) {
    this.runtime = runtime;
    this.started = started;
  }

  void run() {
    try (AudioTranscoder transcoder =
        new AudioTranscoder(
            started.request().format(),
            runtime.engine.sampleRateHz(),
            started.request().sampleRateHz())) {
      while (true) {
        switch (started.buffer().take(runtime.writerStall())) {
          case ChunkBuffer.Item.Chunk(short[] samples) ->
              send(transcoder.encode(committed ? coalesce(samples) : samples), false);
          case ChunkBuffer.Item.End() -> {
            send(transcoder.finish(), true);
            InvocationsHandler.awaitQuietly(started.job());
            runtime.metrics.synthesis.recordNanos(started.job().synthesisNanos());
            runtime.metrics.completed(started.job().samples());
            started.callback().succeeded();
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
      started.job().cancel();
      runtime.metrics.streamFailed(StreamFailure.CLIENT_DISCONNECTED);
      started.callback().failed(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      started.job().cancel();
      started.callback().failed(e);
    } catch (RuntimeException e) {
      started.job().cancel();
      fail(e);
    }
  }

  /**
   * After the first chunk (sent alone, so time to first audio byte is not delayed), whatever the
   * engine has already queued goes out in the same write: fewer, larger writes for the same audio,
   * and less work for every hop downstream.
   */
  private short[] coalesce(short[] first) {
    short[] more = started.buffer().pollAvailable(COALESCE_SAMPLES - first.length);
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
      if (started.request().format() == AudioFormat.WAV) {
        first = new byte[WavHeader.BYTES + bytes.length];
        System.arraycopy(
            WavHeader.streaming(started.request().sampleRateHz()), 0, first, 0, WavHeader.BYTES);
        System.arraycopy(bytes, 0, first, WavHeader.BYTES, bytes.length);
      }
      HttpIo.write(started.response(), last, first);
      runtime.metrics.ttfab.recordNanos(runtime.ticker.nanoTime() - started.arrivalNanos());
      return;
    }
    if (bytes.length > 0 || last) {
      HttpIo.write(started.response(), last, bytes);
    }
  }

  private void commit() {
    committed = true;
    started.response().setStatus(200);
    var headers = started.response().getHeaders();
    headers.put(
        HttpHeader.CONTENT_TYPE,
        started.request().format().mediaType(started.request().sampleRateHz()));
    headers.put("X-Request-Id", started.request().requestId());
    headers.put("X-Characters-Processed", Integer.toString(started.request().characters()));
    // how long the admitted request waited for its execution slot, on the gate's ticker
    headers.put(InvocationsHandler.QUEUE_WAIT_HEADER, Long.toString(started.queuedNanos() / 1000));
    long engineFirst = started.job().engineFirstChunkNanos();
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
          started.response(),
          started.callback(),
          status,
          Map.of("error", error, "message", String.valueOf(cause.getMessage())));
      return;
    }
    // after the 200: abort, so the client sees a broken stream instead of a clean short one
    started.callback().failed(cause);
  }
}
