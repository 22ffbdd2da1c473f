package dev.speechscale.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The trivial endpoint of the loadgen-vs-wrk benchmark: keep-alive HTTP/1.1 on 127.0.0.1, any
 * request answered {@code 200} with a fixed 2-byte body, one virtual thread per connection. It
 * exists to make the <em>client</em> the bottleneck, so two clients can be compared.
 *
 * <p>Run on its own: {@code java -cp ... dev.speechscale.benchmarks.TrivialHttpServer [port]}
 * prints {@code listening <port>} and serves until killed.
 */
public final class TrivialHttpServer implements AutoCloseable {
  private static final byte[] RESPONSE =
      "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"
          .getBytes(StandardCharsets.US_ASCII);

  private static final java.util.concurrent.atomic.AtomicLong RESETS =
      new java.util.concurrent.atomic.AtomicLong();

  private final ServerSocket server;
  private final Thread acceptor;
  private volatile boolean closed;

  public TrivialHttpServer(int port) throws IOException {
    server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1024);
    acceptor = Thread.ofPlatform().name("trivial-accept").start(this::accept);
  }

  public int port() {
    return server.getLocalPort();
  }

  private void accept() {
    while (!closed) {
      try {
        Socket s = server.accept();
        s.setTcpNoDelay(true);
        Thread.ofVirtual().start(() -> serve(s));
      } catch (IOException e) {
        if (!closed) {
          System.err.println("trivial server: accept failed: " + e.getMessage());
        }
      }
    }
  }

  private static void serve(Socket s) {
    byte[] buf = new byte[8192];
    int have = 0;
    try (s;
        InputStream in = s.getInputStream();
        OutputStream out = s.getOutputStream()) {
      while (true) {
        int headEnd;
        while ((headEnd = headEnd(buf, have)) < 0) {
          if (have == buf.length) {
            return; // a head larger than 8 KiB: not a client of this benchmark
          }
          int n = in.read(buf, have, buf.length - have);
          if (n < 0) {
            return;
          }
          have += n;
        }
        int body = contentLength(buf, headEnd);
        int total = headEnd + body;
        while (have < total) {
          int n = in.read(buf, have, Math.min(buf.length, total) - have);
          if (n < 0) {
            return;
          }
          have += n;
        }
        out.write(RESPONSE);
        System.arraycopy(buf, total, buf, 0, have - total);
        have -= total;
      }
    } catch (IOException e) {
      RESETS.incrementAndGet(); // the client dropped its connection: how a benchmark run ends
    }
  }

  /** Index just past the blank line ending the head, or -1. */
  private static int headEnd(byte[] b, int n) {
    for (int i = 3; i < n; i++) {
      if (b[i] == '\n' && b[i - 1] == '\r' && b[i - 2] == '\n' && b[i - 3] == '\r') {
        return i + 1;
      }
    }
    return -1;
  }

  /** The Content-Length of the request head {@code b[0, headEnd)}; 0 when it has none. */
  static int contentLength(byte[] b, int headEnd) {
    String head = new String(b, 0, headEnd, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
    int at = head.indexOf("\ncontent-length:");
    if (at < 0) {
      return 0;
    }
    int end = head.indexOf('\r', at);
    return Integer.parseInt(head.substring(at + 16, end).trim());
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
  }

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    TrivialHttpServer s = new TrivialHttpServer(port);
    PrintStream out = System.out;
    out.println("listening " + s.port());
    out.flush();
    s.acceptor.join();
  }
}
