package dev.speechscale.server;

import dev.speechscale.admission.Permit;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One request's synthesis: runs its segments through the engine on an engine thread and feeds a
 * {@link ChunkBuffer}. Gives the permit's execution slot back when the engine is done (the request
 * stays in flight while its audio drains). Cancelled cooperatively: the next chunk boundary stops
 * the engine.
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

  private final SpeechEngine engine;
  private final List<String> segments;
  private final SynthesisRequest request;
  private final ChunkBuffer buffer;
  private final Permit permit;
  private final long maxBufferedBytes;
  private final CountDownLatch done = new CountDownLatch(1);
  private volatile boolean cancelled;
  private volatile long startedNanos;
  private volatile long firstChunkNanos;
  private volatile long finishedNanos;
  private long samples;

  SynthesisJob(
      SpeechEngine engine,
      List<String> segments,
      SynthesisRequest request,
      ChunkBuffer buffer,
      Permit permit,
      long maxBufferedBytes) {
    this.engine = engine;
    this.segments = List.copyOf(segments);
    this.request = request;
    this.buffer = buffer;
    this.permit = permit;
    this.maxBufferedBytes = maxBufferedBytes;
  }

  @Override
  public void run() {
    startedNanos = System.nanoTime();
    try {
      for (String segment : segments) {
        if (cancelled) {
          break;
        }
        engine.synthesize(segment, request.voice(), request.speed(), this::accept);
      }
      buffer.end();
    } catch (RuntimeException e) {
      buffer.fail(e);
    } finally {
      finishedNanos = System.nanoTime();
      permit.endExecution();
      done.countDown();
    }
  }

  private boolean accept(short[] pcm, int offset, int length) {
    if (cancelled) {
      return false;
    }
    if (length <= 0) {
      return true;
    }
    if (firstChunkNanos == 0) {
      firstChunkNanos = System.nanoTime();
      permit.firstByte();
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

  /** Waits until the engine returned (at most {@code timeout}); true when it did. */
  boolean awaitDone(Duration timeout) throws InterruptedException {
    return done.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Engine time from start to its first chunk, or -1 before it produced one. */
  long engineFirstChunkNanos() {
    long first = firstChunkNanos;
    return first == 0 ? -1 : first - startedNanos;
  }

  /** Engine time from start to its return, or -1 while running. */
  long synthesisNanos() {
    long end = finishedNanos;
    return end == 0 ? -1 : end - startedNanos;
  }

  /** Samples produced (valid after {@link #awaitDone}). */
  long samples() {
    return samples;
  }
}
