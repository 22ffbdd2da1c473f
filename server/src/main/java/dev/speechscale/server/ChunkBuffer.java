package dev.speechscale.server;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The bounded hand-off between an engine (producer) and a socket writer (consumer).
 *
 * <p>The producer never blocks: {@link #offer} copies the chunk or, when the bytes buffered would
 * exceed the bound, refuses it, and the job then fails the stream as {@code client_too_slow}. So a
 * slow reader can never hold the engine (or its execution slot) hostage, and memory per request is
 * bounded. The consumer blocks in {@link #take}.
 */
final class ChunkBuffer {

  /** What the consumer receives. */
  sealed interface Item {
    record Chunk(short[] samples) implements Item {}

    record End() implements Item {}

    record Failed(Throwable cause) implements Item {}

    /** {@link #take} timed out with nothing to deliver. */
    record Idle() implements Item {}
  }

  private final long maxBytes;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition available = lock.newCondition();
  private final ArrayDeque<short[]> chunks = new ArrayDeque<>();
  private long bufferedBytes;
  private boolean ended;
  private @Nullable Throwable failure;

  ChunkBuffer(long maxBytes) {
    if (maxBytes < 2) {
      throw new IllegalArgumentException("maxBytes (" + maxBytes + ") must hold one sample");
    }
    this.maxBytes = maxBytes;
  }

  /** Copies a chunk in; false (nothing buffered) when it would exceed the bound or after end. */
  boolean offer(short[] samples, int offset, int length) {
    lock.lock();
    try {
      if (ended || failure != null) {
        return false;
      }
      long bytes = (long) length * Short.BYTES;
      if (bufferedBytes + bytes > maxBytes) {
        return false;
      }
      chunks.addLast(Arrays.copyOfRange(samples, offset, offset + length));
      bufferedBytes += bytes;
      available.signalAll();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Marks the normal end of the audio; buffered chunks are still delivered first. */
  void end() {
    lock.lock();
    try {
      ended = true;
      available.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Marks a failure; buffered chunks are delivered first, then the failure. First one wins. */
  void fail(Throwable cause) {
    lock.lock();
    try {
      if (failure == null && !ended) {
        failure = cause;
      }
      available.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The next item, waiting at most {@code timeout}. */
  Item take(Duration timeout) throws InterruptedException {
    long remaining = timeout.toNanos();
    lock.lock();
    try {
      while (chunks.isEmpty() && !ended && failure == null) {
        if (remaining <= 0) {
          return new Item.Idle();
        }
        remaining = available.awaitNanos(remaining);
      }
      short[] next = chunks.pollFirst();
      if (next != null) {
        bufferedBytes -= (long) next.length * Short.BYTES;
        return new Item.Chunk(next);
      }
      return failure != null ? new Item.Failed(failure) : new Item.End();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Every chunk queued right now, concatenated, up to about {@code maxSamples} (whole chunks only);
   * {@code null} when none is queued. Never waits: a writer uses it to coalesce what the engine
   * already produced into one write, without delaying anything it has not.
   */
  short @Nullable [] pollAvailable(int maxSamples) {
    lock.lock();
    try {
      int total = 0;
      for (short[] c : chunks) {
        if (total > 0 && total + c.length > maxSamples) {
          break;
        }
        total += c.length;
      }
      if (total == 0) {
        return null;
      }
      short[] out = new short[total];
      int at = 0;
      while (at < total) {
        short[] c = chunks.pollFirst();
        System.arraycopy(c, 0, out, at, c.length);
        at += c.length;
        bufferedBytes -= (long) c.length * Short.BYTES;
      }
      return out;
    } finally {
      lock.unlock();
    }
  }
}
