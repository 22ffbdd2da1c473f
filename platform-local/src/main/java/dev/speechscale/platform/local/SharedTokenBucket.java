package dev.speechscale.platform.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A token bucket kept in a file of the state directory, so every endpoint's supervisor (one process
 * each) draws on the same bucket: AWS meters its control-plane APIs per account and Region, not per
 * endpoint (SageMaker "API request rates are per account per Region"; Application Auto Scaling and
 * CloudWatch likewise throttle an account's calls as a whole). The file holds the tokens left and
 * the time they were counted; each take locks it (a file lock between processes, a monitor between
 * threads of one process, which a file lock does not serialise). Times are wall-clock epoch
 * nanoseconds, the one clock the processes share; a time earlier than the stored one refills
 * nothing.
 */
final class SharedTokenBucket {
  private static final ConcurrentHashMap<Path, Object> IN_PROCESS = new ConcurrentHashMap<>();

  private final Path file;
  private final double callsPerSecond;
  private final double burst;

  /** A bucket of {@code callsPerSecond} (above 0) in {@code file}, holding one second of calls. */
  SharedTokenBucket(Path file, double callsPerSecond) {
    if (!(callsPerSecond > 0)) {
      throw new IllegalArgumentException(
          "a shared control-rate bucket needs a rate above 0 (got " + callsPerSecond + ")");
    }
    this.file = file.toAbsolutePath().normalize();
    this.callsPerSecond = callsPerSecond;
    this.burst = Math.max(1, callsPerSecond);
  }

  /** Whether a call at {@code nowEpochNanos} may proceed; takes a token when it may. */
  boolean tryTake(long nowEpochNanos) {
    synchronized (IN_PROCESS.computeIfAbsent(file, f -> new Object())) {
      try (FileChannel ch =
              FileChannel.open(
                  file,
                  StandardOpenOption.CREATE,
                  StandardOpenOption.READ,
                  StandardOpenOption.WRITE);
          FileLock lock = ch.lock()) {
        ByteBuffer b = ByteBuffer.allocate(16);
        int n = ch.read(b, 0);
        double tokens = burst;
        long last = nowEpochNanos;
        if (n == 16) {
          b.flip();
          double stored = b.getDouble();
          long storedAt = b.getLong();
          last = Math.max(storedAt, nowEpochNanos);
          tokens =
              Math.min(
                  burst, stored + Math.max(0, nowEpochNanos - storedAt) / 1e9 * callsPerSecond);
        }
        boolean ok = tokens >= 1;
        if (ok) {
          tokens -= 1;
        }
        b.clear();
        b.putDouble(tokens).putLong(last).flip();
        ch.write(b, 0);
        return ok;
      } catch (IOException e) {
        throw new UncheckedIOException("control-rate bucket " + file + ": " + e.getMessage(), e);
      }
    }
  }
}
