package dev.speechscale.platform.local;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One keep-alive HTTP/1.1 connection from the router to an instance, on a plain socket: the request
 * is written in one go, the response head parsed, and the body handed to the caller as it arrives
 * (chunked decoding done here, nothing buffered beyond what the socket already holds). The router's
 * own data path therefore adds one read and one write per burst, not a client library's thread
 * hand-offs — what keeps its overhead near the loopback floor.
 */
final class UpstreamConnection implements AutoCloseable {
  /** How long the router waits for an instance's next byte (its queue age is 56 s by default). */
  static final java.time.Duration READ_TIMEOUT = java.time.Duration.ofSeconds(60);

  /**
   * The instance did not answer this request at all: writing it failed, or the connection ended
   * (EOF or reset) before the first byte of a response. On a kept-alive connection that means the
   * instance had closed it while idle and never saw the request; on a fresh one that it died. Never
   * a read timeout: an instance that is slow may be working on the request.
   */
  static final class NoResponseException extends IOException {
    private static final long serialVersionUID = 1L;

    NoResponseException(String message, @Nullable Throwable cause) {
      super(message, cause);
    }
  }

  private final Socket socket;
  private final BufferedInputStream in;
  private final OutputStream out;
  private final String host;
  private boolean reusable = true;

  UpstreamConnection(String host, int port, java.time.Duration readTimeout) throws IOException {
    this.host = host + ":" + port;
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(new InetSocketAddress(host, port), 5000);
    socket.setSoTimeout((int) readTimeout.toMillis());
    in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    out = socket.getOutputStream();
  }

  /**
   * The instance's response head and a body stream; the body must be read to its end (or this
   * connection closed) before the connection is used again.
   *
   * @param status the status code
   * @param contentType Content-Type, or {@code null}
   * @param retryAfter Retry-After, or {@code null}
   * @param body the decoded body
   * @param passOn the container's own {@code X-} headers (request id, characters, the engine's and
   *     the queue's timing), name as sent and value, in order: the container contract passes them
   *     on
   */
  record Response(
      int status,
      @Nullable String contentType,
      @Nullable String retryAfter,
      InputStream body,
      List<Map.Entry<String, String>> passOn) {}

  /** Sends {@code POST path} with {@code body}; returns once the response head has arrived. */
  Response post(String path, byte[] body, String contentType, String accept) throws IOException {
    StringBuilder head =
        new StringBuilder(256)
            .append("POST ")
            .append(path)
            .append(" HTTP/1.1\r\nHost: ")
            .append(host)
            .append("\r\nContent-Type: ")
            .append(contentType == null ? "application/json" : contentType)
            .append("\r\nContent-Length: ")
            .append(body.length)
            .append("\r\n");
    if (accept != null) {
      head.append("Accept: ").append(accept).append("\r\n");
    }
    head.append("\r\n");
    byte[] h = head.toString().getBytes(StandardCharsets.ISO_8859_1);
    byte[] request = new byte[h.length + body.length];
    System.arraycopy(h, 0, request, 0, h.length);
    System.arraycopy(body, 0, request, h.length, body.length);
    String status;
    try {
      out.write(request);
      out.flush();
      status = firstLine();
    } catch (java.net.SocketTimeoutException slow) {
      reusable = false;
      throw slow;
    } catch (NoResponseException none) {
      throw none;
    } catch (IOException e) {
      reusable = false;
      throw new NoResponseException(
          "the instance at " + host + " dropped the connection before answering: " + e, e);
    }
    if (!status.startsWith("HTTP/1.1 ") || status.length() < 12) {
      reusable = false;
      throw new IOException("not an HTTP/1.1 response from " + host + ": '" + status + "'");
    }
    int code = Integer.parseInt(status.substring(9, 12));
    String type = null;
    String retry = null;
    boolean chunked = false;
    long length = -1;
    List<Map.Entry<String, String>> passOn = new ArrayList<>();
    for (String l = line(); !l.isEmpty(); l = line()) {
      int colon = l.indexOf(':');
      if (colon <= 0) {
        continue;
      }
      String name = l.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = l.substring(colon + 1).trim();
      switch (name) {
        case "content-type" -> type = value;
        case "retry-after" -> retry = value;
        case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
        case "content-length" -> length = Long.parseLong(value);
        case "connection" -> reusable &= !value.toLowerCase(Locale.ROOT).contains("close");
        default -> {
          if (name.startsWith("x-")) {
            passOn.add(Map.entry(l.substring(0, colon).trim(), value));
          }
          // other headers the router does not pass on
        }
      }
    }
    InputStream body2;
    if (chunked) {
      body2 = new Chunked();
    } else if (length >= 0 || code / 100 == 1 || code == 204 || code == 304) {
      body2 = new Fixed(Math.max(0, length));
    } else {
      // no length and not chunked: the body runs to the end of the connection (RFC 9112 6.3)
      reusable = false;
      body2 = new UntilClose();
    }
    return new Response(code, type, retry, body2, List.copyOf(passOn));
  }

  boolean reusable() {
    return reusable;
  }

  /** The status line; EOF before its first byte is {@link NoResponseException}. */
  private String firstLine() throws IOException {
    int c = in.read();
    if (c < 0) {
      reusable = false;
      throw new NoResponseException(
          "the instance at " + host + " closed the connection before answering", null);
    }
    String rest = line();
    return c == '\n' ? rest : (char) c + rest;
  }

  private String line() throws IOException {
    StringBuilder b = new StringBuilder(64);
    int c;
    while ((c = in.read()) >= 0) {
      if (c == '\n') {
        int n = b.length();
        return n > 0 && b.charAt(n - 1) == '\r' ? b.substring(0, n - 1) : b.toString();
      }
      b.append((char) c);
    }
    reusable = false;
    throw new IOException("connection to " + host + " closed mid-response");
  }

  @Override
  public void close() {
    reusable = false;
    try {
      socket.close();
    } catch (IOException ignoredOnClose) {
      // closing a socket whose peer already left
    }
  }

  /** A body that reads at most what is left of it; a connection lost before then is an error. */
  private abstract class Body extends InputStream {
    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    /** Up to {@code len} bytes but no more than {@code remaining}; the lost connection named. */
    int readSome(byte[] b, int off, int len, long remaining, String cut) throws IOException {
      int n = in.read(b, off, (int) Math.min(len, remaining));
      if (n < 0) {
        reusable = false;
        throw new IOException("connection to " + host + " closed mid-body" + cut);
      }
      return n;
    }
  }

  /**
   * A chunked body: ends at the zero-length chunk; a connection lost before it is an error. The
   * CRLF that closes a chunk's data is read with the next chunk's size line, not right after the
   * data: Jetty (the container's server) sends that CRLF only in front of the next chunk, so
   * waiting for it held every chunk back until the next one arrived, the first audio included.
   */
  private final class Chunked extends Body {
    private long remaining;
    private boolean done;
    private boolean dataEnded;

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (done) {
        return -1;
      }
      if (remaining == 0) {
        if (dataEnded) {
          String crlf = line();
          if (!crlf.isEmpty()) {
            reusable = false;
            throw new IOException("a chunk from " + host + " was not followed by CRLF");
          }
          dataEnded = false;
        }
        String size = line();
        int semi = size.indexOf(';');
        remaining = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
        if (remaining == 0) {
          while (!line().isEmpty()) {
            // trailers
          }
          done = true;
          return -1;
        }
      }
      int n = readSome(b, off, len, remaining, " (chunked stream cut)");
      remaining -= n;
      dataEnded = remaining == 0;
      return n;
    }

    @Override
    public int available() throws IOException {
      return done || remaining == 0 ? 0 : (int) Math.min(remaining, in.available());
    }
  }

  /** A body without a length: everything until the instance closes the connection. */
  private final class UntilClose extends InputStream {
    @Override
    public int read() throws IOException {
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return in.read(b, off, len);
    }

    @Override
    public int available() throws IOException {
      return in.available();
    }
  }

  /** A body of known length. */
  private final class Fixed extends Body {
    private long remaining;

    Fixed(long length) {
      this.remaining = length;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (remaining == 0) {
        return -1;
      }
      int n = readSome(b, off, len, remaining, "");
      remaining -= n;
      return n;
    }

    @Override
    public int available() throws IOException {
      return (int) Math.min(remaining, in.available());
    }
  }
}
