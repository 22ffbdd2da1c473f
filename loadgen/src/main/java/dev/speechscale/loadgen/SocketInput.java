package dev.speechscale.loadgen;

import dev.speechscale.platform.NanoClock;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * A buffered reader over one socket that remembers <em>when</em> each buffer fill arrived, so a
 * byte that came in the same read as the response headers is timed at that read, not at the moment
 * the parser reached it. Reads block without a socket timeout; deadlines are a {@link Watchdog}'s
 * job. Not thread-safe: one worker owns it.
 */
final class SocketInput {
  private static final int MAX_LINE_BYTES = 16 * 1024;

  private final InputStream in;
  private final NanoClock clock;
  private final byte[] buf = new byte[16 * 1024];
  private int pos;
  private int limit;
  private long fillNanos = -1;
  private long bytesRead;

  SocketInput(Socket socket, NanoClock clock) throws IOException {
    this.in = socket.getInputStream();
    this.clock = clock;
  }

  /** Bytes taken off the socket since {@link #resetCount()}. */
  long bytesRead() {
    return bytesRead;
  }

  void resetCount() {
    bytesRead = 0;
  }

  /** When the buffer fill holding the next unread byte arrived. */
  long fillNanos() {
    return fillNanos;
  }

  /** Bytes already buffered and not yet consumed. */
  int buffered() {
    return limit - pos;
  }

  /** Ensures at least one unread byte; false at end of stream. */
  boolean ensure() throws IOException {
    if (pos < limit) {
      return true;
    }
    int n = in.read(buf, 0, buf.length);
    fillNanos = clock.nanoTime();
    pos = 0;
    limit = Math.max(n, 0);
    if (n > 0) {
      bytesRead += n;
    }
    return n > 0;
  }

  int readByte() throws IOException {
    if (!ensure()) {
      throw new EOFException("connection closed");
    }
    return buf[pos++] & 0xff;
  }

  /** Exactly {@code n} bytes. */
  byte[] readFully(int n) throws IOException {
    byte[] out = new byte[n];
    int off = 0;
    while (off < n) {
      if (!ensure()) {
        throw new EOFException("connection closed " + off + " bytes into a " + n + "-byte read");
      }
      int take = Math.min(n - off, limit - pos);
      System.arraycopy(buf, pos, out, off, take);
      pos += take;
      off += take;
    }
    return out;
  }

  /**
   * A CRLF- (or LF-) terminated ASCII line without its terminator; {@code null} when the stream
   * ends before the first byte of the line.
   */
  @Nullable String readLine() throws IOException {
    if (!ensure()) {
      return null;
    }
    for (int i = pos; i < limit; i++) {
      if (buf[i] == '\n') { // fast path: the whole line is buffered
        int end = i > pos && buf[i - 1] == '\r' ? i - 1 : i;
        String line = new String(buf, pos, end - pos, StandardCharsets.ISO_8859_1);
        pos = i + 1;
        return line;
      }
    }
    StringBuilder line = new StringBuilder(64);
    while (true) {
      if (!ensure()) {
        throw new EOFException("connection closed inside a line: " + line);
      }
      int start = pos;
      while (pos < limit && buf[pos] != '\n') {
        pos++;
      }
      line.append(new String(buf, start, pos - start, StandardCharsets.ISO_8859_1));
      if (line.length() > MAX_LINE_BYTES) {
        throw new IOException("line longer than " + MAX_LINE_BYTES + " bytes");
      }
      if (pos < limit) {
        pos++; // the '\n'
        int len = line.length();
        if (len > 0 && line.charAt(len - 1) == '\r') {
          line.setLength(len - 1);
        }
        return line.toString();
      }
    }
  }

  /**
   * Passes up to {@code max} bytes to {@code sink}, each piece stamped with the time its buffer
   * fill arrived. Returns the bytes passed, or -1 at end of stream before any.
   */
  long deliver(long max, BodySink sink) throws IOException {
    long done = 0;
    while (done < max) {
      if (!ensure()) {
        return done == 0 ? -1 : done;
      }
      int take = (int) Math.min(max - done, limit - pos);
      sink.accept(buf, pos, take, fillNanos);
      pos += take;
      done += take;
    }
    return done;
  }

  /** Receives body bytes with the time they arrived. */
  @FunctionalInterface
  interface BodySink {
    void accept(byte[] bytes, int offset, int length, long arrivalNanos);
  }
}
