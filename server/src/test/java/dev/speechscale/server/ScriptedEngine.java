package dev.speechscale.server;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test engine the test drives: each call emits one chunk at once, then one more chunk per permit
 * the test releases ({@link #allow}), up to {@code chunksPerCall}; it honours cancellation at every
 * chunk boundary. Lets gate and streaming tests hold requests in known states without sleeping.
 */
final class ScriptedEngine extends TestEngine {
  static final int RATE = 16_000;
  static final int CHUNK = 1_600;

  private final int chunksPerCall;
  private final Semaphore permits = new Semaphore(0);
  final AtomicInteger running = new AtomicInteger();
  final AtomicInteger cancelled = new AtomicInteger();
  final AtomicInteger calls = new AtomicInteger();
  volatile CountDownLatch firstChunkSent = new CountDownLatch(1);

  /** When set, every call fails right after its first chunk (a mid-stream engine failure). */
  volatile boolean failAfterFirstChunk;

  /**
   * When set, every call fails at once with this message (an engine that loads but never works).
   */
  volatile String failEveryCall;

  ScriptedEngine(int chunksPerCall, int concurrency) {
    super("scripted", concurrency);
    this.chunksPerCall = chunksPerCall;
  }

  /** Lets running calls emit {@code chunks} more chunks in total. */
  void allow(int chunks) {
    permits.release(chunks);
  }

  @Override
  public void synthesize(String text, String voice, double speed, PcmSink sink) {
    calls.incrementAndGet();
    if (failEveryCall != null) {
      throw new EngineException(failEveryCall);
    }
    running.incrementAndGet();
    try {
      short[] tone = new short[CHUNK];
      for (int i = 0; i < CHUNK; i++) {
        tone[i] = (short) (8000 * Math.sin(i * 0.2));
      }
      for (int c = 0; c < chunksPerCall; c++) {
        if (c > 0 && !permits.tryAcquire(30, TimeUnit.SECONDS)) {
          throw new EngineException("test never allowed chunk " + c);
        }
        if (!sink.accept(tone, 0, CHUNK)) {
          cancelled.incrementAndGet();
          return;
        }
        if (c == 0) {
          firstChunkSent.countDown();
          if (failAfterFirstChunk) {
            throw new EngineException("scripted failure after the first chunk");
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EngineException("interrupted", e);
    } finally {
      running.decrementAndGet();
    }
  }
}
