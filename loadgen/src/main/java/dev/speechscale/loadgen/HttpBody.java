package dev.speechscale.loadgen;

import java.io.IOException;

/** Reads one response body by its framing (chunked, Content-Length, or until close). */
final class HttpBody {
  private HttpBody() {}

  /** How a body ended. */
  enum End {
    /** The framing said the body was complete (terminating chunk, full length, or close). */
    COMPLETE,
    /**
     * The connection closed before the framing said the body was complete: for a 200 stream this is
     * the container's in-band failure signal (a chunked response aborted without its terminating
     * chunk).
     */
    TRUNCATED
  }

  static End read(SocketInput in, HttpHead head, SocketInput.BodySink sink) throws IOException {
    if (head.chunked()) {
      return chunked(in, sink);
    }
    if (head.contentLength() >= 0) {
      long got = head.contentLength() == 0 ? 0 : in.deliver(head.contentLength(), sink);
      return got == head.contentLength() ? End.COMPLETE : End.TRUNCATED;
    }
    if (!head.untilClose()) {
      return End.COMPLETE;
    }
    while (in.deliver(Long.MAX_VALUE, sink) > 0) {
      // until the server closes
    }
    return End.COMPLETE;
  }

  private static End chunked(SocketInput in, SocketInput.BodySink sink) throws IOException {
    while (true) {
      String sizeLine = in.readLine();
      if (sizeLine == null) {
        return End.TRUNCATED;
      }
      long size = chunkSize(sizeLine);
      if (size == 0) {
        // trailers, then the empty line
        while (true) {
          String trailer = in.readLine();
          if (trailer == null) {
            return End.TRUNCATED;
          }
          if (trailer.isEmpty()) {
            return End.COMPLETE;
          }
        }
      }
      long got = in.deliver(size, sink);
      if (got != size) {
        return End.TRUNCATED;
      }
      String crlf = in.readLine();
      if (crlf == null) {
        return End.TRUNCATED;
      }
      if (!crlf.isEmpty()) {
        throw new IOException("chunk of " + size + " bytes not followed by CRLF");
      }
    }
  }

  private static long chunkSize(String line) throws IOException {
    int end = line.indexOf(';');
    String hex = (end < 0 ? line : line.substring(0, end)).trim();
    try {
      long size = Long.parseLong(hex, 16);
      if (size < 0) {
        throw new IOException("negative chunk size " + hex);
      }
      return size;
    } catch (NumberFormatException e) {
      throw new IOException("bad chunk size line: " + HttpHead.abbreviate(line), e);
    }
  }

  /** Keeps the first bytes of an error body as text. */
  static final class Capture implements SocketInput.BodySink {
    private final byte[] kept = new byte[2048];
    private int length;

    @Override
    public void accept(byte[] bytes, int offset, int n, long arrivalNanos) {
      int take = Math.min(n, kept.length - length);
      System.arraycopy(bytes, offset, kept, length, take);
      length += take;
    }

    String text() {
      return new String(kept, 0, length, java.nio.charset.StandardCharsets.UTF_8);
    }
  }
}
