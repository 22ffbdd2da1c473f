package dev.speechscale.loadgen;

import java.io.EOFException;
import java.io.IOException;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The status line and the headers of one HTTP/1.1 response that the load generator cares about.
 *
 * @param status the status code
 * @param contentType the Content-Type, or {@code null}
 * @param contentLength the Content-Length, or -1
 * @param chunked Transfer-Encoding is chunked
 * @param close the server will close the connection after this response
 * @param webSocketAccept Sec-WebSocket-Accept, or {@code null}
 * @param queueWaitUs the server's X-Queue-Wait-Us, or -1 when absent or not a count
 * @param engineFirstChunkUs the server's X-Engine-First-Chunk-Us, or -1 when absent or not a count
 * @param instance the local router's X-Speechscale-Instance (the instance that served the request),
 *     or {@code null} when absent
 */
record HttpHead(
    int status,
    @Nullable String contentType,
    long contentLength,
    boolean chunked,
    boolean close,
    @Nullable String webSocketAccept,
    long queueWaitUs,
    long engineFirstChunkUs,
    @Nullable String instance) {
  private static final int MAX_HEADERS = 100;

  /**
   * Reads a status line and headers, skipping interim 1xx responses other than 101.
   *
   * @throws EOFException when the connection closes before a status line
   */
  static HttpHead read(SocketInput in) throws IOException {
    while (true) {
      String statusLine = in.readLine();
      if (statusLine == null) {
        throw new EOFException("connection closed before a response");
      }
      if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12) {
        throw new IOException("not an HTTP/1.x status line: " + abbreviate(statusLine));
      }
      int status;
      try {
        status = Integer.parseInt(statusLine.substring(9, 12));
      } catch (NumberFormatException e) {
        throw new IOException("no status code in: " + abbreviate(statusLine), e);
      }
      boolean http10 = statusLine.startsWith("HTTP/1.0");
      String contentType = null;
      long contentLength = -1;
      boolean chunked = false;
      Boolean close = null;
      String accept = null;
      long queueWaitUs = -1;
      long engineFirstChunkUs = -1;
      String instance = null;
      for (int i = 0; ; i++) {
        if (i > MAX_HEADERS) {
          throw new IOException("more than " + MAX_HEADERS + " response headers");
        }
        String line = in.readLine();
        if (line == null) {
          throw new EOFException("connection closed inside the response headers");
        }
        if (line.isEmpty()) {
          break;
        }
        int colon = line.indexOf(':');
        if (colon <= 0) {
          continue;
        }
        // names compared in place (no lower-cased copy per header): this runs per response
        if (named(line, colon, "content-type")) {
          contentType = value(line, colon);
        } else if (named(line, colon, "content-length")) {
          contentLength = parseLength(value(line, colon));
        } else if (named(line, colon, "transfer-encoding")) {
          chunked = value(line, colon).toLowerCase(Locale.ROOT).contains("chunked");
        } else if (named(line, colon, "connection")) {
          String v = value(line, colon).toLowerCase(Locale.ROOT);
          if (v.contains("close")) {
            close = true;
          } else if (v.contains("keep-alive") && close == null) {
            close = false;
          }
        } else if (named(line, colon, "sec-websocket-accept")) {
          accept = value(line, colon);
        } else if (named(line, colon, "x-queue-wait-us")) {
          queueWaitUs = count(value(line, colon));
        } else if (named(line, colon, "x-engine-first-chunk-us")) {
          engineFirstChunkUs = count(value(line, colon));
        } else if (named(line, colon, "x-speechscale-instance")) {
          instance = value(line, colon);
        }
      }
      if (status >= 100 && status < 200 && status != 101) {
        continue;
      }
      return new HttpHead(
          status,
          contentType,
          contentLength,
          chunked,
          close == null ? http10 : close,
          accept,
          queueWaitUs,
          engineFirstChunkUs,
          instance == null || instance.isEmpty() ? null : instance);
    }
  }

  private static boolean named(String line, int colon, String name) {
    return colon == name.length() && line.regionMatches(true, 0, name, 0, colon);
  }

  private static String value(String line, int colon) {
    return line.substring(colon + 1).trim();
  }

  /** A non-negative count, or -1 for anything else (a timing header is evidence, not protocol). */
  static long count(String value) {
    try {
      long n = Long.parseLong(value);
      return n < 0 ? -1 : n;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static long parseLength(String value) throws IOException {
    try {
      long n = Long.parseLong(value);
      if (n < 0) {
        throw new IOException("negative Content-Length " + value);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IOException("bad Content-Length " + abbreviate(value), e);
    }
  }

  /** The body runs until the server closes the connection. */
  boolean untilClose() {
    return !chunked && contentLength < 0 && status != 204 && status != 304;
  }

  static String abbreviate(String s) {
    String oneLine = s.replace('\n', ' ').replace('\r', ' ').strip();
    return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "…";
  }
}
