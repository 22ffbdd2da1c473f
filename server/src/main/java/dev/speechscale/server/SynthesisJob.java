package dev.speechscale.server;

import dev.speechscale.admission.Permit;
import dev.speechscale.platform.NanoClock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One request's synthesis: runs its segments through the engine on an engine thread and feeds a
 * {@link ChunkBuffer}. Gives the permit's execution slot back when the engine is done (the request
 * stays in flight while its audio drains). Cancelled cooperatively: the next chunk boundary stops
 * the engine.
 *
 * <p>Two bounds stop an engine that will not stop by itself (issue 11): the audio cap ({@code
 * MAX_AUDIO_S}) stops a call that keeps producing, at its next chunk; the {@link EngineWatchdog}
 * declares a call that produces nothing for {@code ENGINE_STALL_S} stuck, which fails the request
 * at once and lets its owner release the permit although the engine thread never returns.
 */
final class SynthesisJob implements Runnable {
  /** Thrown into the buffer when the reader is too slow for the bound. */
  static final class ClientTooSlowException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ClientTooSlowException(long maxBytes) {
      super(
          "the client read too slowly: more than "
              + maxBytes
              + " bytes of audio were waiting; read faster or raise --max-buffered-bytes");
    }
  }

  /** Thrown into the buffer when the request's audio passed {@code MAX_AUDIO_S}. */
  static final class AudioCapException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    AudioCapException(Duration cap, int characters) {
      super(
          String.format(
              Locale.ROOT,
              "the audio for this %d-character text passed %.1f s (--max-audio-s / MAX_AUDIO_S);"
                  + " the engine was stopped; send shorter text or raise MAX_AUDIO_S",
              characters,
              cap.toNanos() / 1e9));
    }
  }

  /** Thrown into the buffer when the watchdog found the engine call stuck. */
  static final class EngineStuckException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    EngineStuckException(String message) {
      super(message);
    }
  }

  private final SpeechEngine engine;
  private final List<String> segments;
  private final SynthesisRequest request;
  private final ChunkBuffer buffer;
  private final Permit permit;
  private final long maxBufferedBytes;
  private final long maxSamples;
  private final Duration maxAudio;
  private final NanoClock ticker;
  private final CountDownLatch done = new CountDownLatch(1);
  private final CountDownLatch over = new CountDownLatch(1);
  private volatile boolean cancelled;
  private volatile boolean running;
  private volatile long progressNanos;
  // times on the injected ticker, whose readings may be any long (0 included): each is published
  // by the volatile flag written after it
  private long startedNanos;
  private long firstChunkNanos;
  private long finishedNanos;
  private volatile boolean producedChunk;
  private volatile boolean finished;
  private long samples;

  SynthesisJob(
      SpeechEngine engine,
      List<String> segments,
      SynthesisRequest request,
      ChunkBuffer buffer,
      Permit permit,
      long maxBufferedBytes,
      Duration maxAudio,
      NanoClock ticker) {
    this.engine = engine;
    this.segments = List.copyOf(segments);
    this.request = request;
    this.buffer = buffer;
    this.permit = permit;
    this.maxBufferedBytes = maxBufferedBytes;
    this.maxAudio = maxAudio;
    this.maxSamples = (long) Math.ceil(maxAudio.toNanos() / 1e9 * engine.sampleRateHz());
    this.ticker = ticker;
  }

  @Override
  public void run() {
    startedNanos = ticker.nanoTime();
    progressNanos = startedNanos;
    running = true;
    try {
      for (String segment : segments) {
        if (cancelled) {
          break;
        }
        progressNanos = ticker.nanoTime();
        engine.synthesize(segment, request.voice(), request.speed(), this::accept);
      }
      buffer.end();
    } catch (RuntimeException e) {
      buffer.fail(e);
    } finally {
      running = false;
      markFinished();
      permit.endExecution();
      done.countDown();
      over.countDown();
    }
  }

  private boolean accept(short[] pcm, int offset, int length) {
    progressNanos = ticker.nanoTime();
    if (cancelled) {
      return false;
    }
    if (length <= 0) {
      return true;
    }
    if (!producedChunk) {
      firstChunkNanos = ticker.nanoTime();
      producedChunk = true;
      permit.firstByte();
    }
    if (samples + length > maxSamples) {
      cancelled = true;
      buffer.fail(new AudioCapException(maxAudio, request.characters()));
      return false;
    }
    if (!buffer.offer(pcm, offset, length)) {
      cancelled = true;
      buffer.fail(new ClientTooSlowException(maxBufferedBytes));
      return false;
    }
    samples += length;
    return true;
  }

  /** Asks the engine to stop at its next chunk. */
  void cancel() {
    cancelled = true;
  }

  /**
   * Nanoseconds on the ticker since the running engine call last showed progress (started a segment
   * or delivered a chunk); 0 when no call is running.
   */
  long stalledNanos(long nowNanos) {
    return running ? nowNanos - progressNanos : 0;
  }

  /**
   * The watchdog's verdict: the engine call will not return in time. Fails the request now and
   * stops waiting for the engine ({@link #awaitDone} returns), so the owner answers and releases
   * the permit; should the call ever return, it delivers nothing more.
   */
  void declareStuck(String reason) {
    cancelled = true;
    buffer.fail(new EngineStuckException(reason));
    over.countDown();
  }

  /**
   * Never runs the engine: the instance is unhealthy (an earlier call is stuck on a native engine
   * thread), so the request fails at once and gives its slot back.
   */
  void refuse(String reason) {
    cancelled = true;
    buffer.fail(new EngineStuckException(reason));
    startedNanos = ticker.nanoTime(); // the engine never ran: no engine time
    finishedNanos = startedNanos;
    finished = true;
    permit.endExecution();
    done.countDown();
    over.countDown();
  }

  /**
   * Waits until the engine returned or was declared stuck (at most {@code timeout}); true when
   * either happened.
   */
  boolean awaitDone(Duration timeout) throws InterruptedException {
    return over.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** True once the engine call returned (never for a call declared stuck that stays stuck). */
  boolean returned() {
    return done.getCount() == 0;
  }

  private void markFinished() {
    finishedNanos = ticker.nanoTime();
    finished = true;
  }

  /** Engine time on the ticker from start to its first chunk, or -1 before it produced one. */
  long engineFirstChunkNanos() {
    return producedChunk ? firstChunkNanos - startedNanos : -1;
  }

  /** Engine time on the ticker from start to its return, or -1 while running. */
  long synthesisNanos() {
    return finished ? finishedNanos - startedNanos : -1;
  }

  /** Samples produced (valid after {@link #awaitDone}). */
  long samples() {
    return samples;
  }
}
