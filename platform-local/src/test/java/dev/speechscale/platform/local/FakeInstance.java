package dev.speechscale.platform.local;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An instance on a bare socket that answers each request as its script says (the n-th request, over
 * all connections, gets the n-th reply): the misbehaviours a real speech-server would not show on
 * demand. Counts the requests it received.
 */
final class FakeInstance implements AutoCloseable {
  /** What the instance does with one request. */
  enum Reply {
    /** 200 with a Content-Length body; the connection stays open for the next request. */
    OK,
    /** 200 with a Content-Length body, then the connection is closed (idle close). */
    OK_THEN_CLOSE,
    /** 200 without Content-Length or chunking: the body runs to the connection's end. */
    NO_LENGTH,
    /** Reads the request and never answers. */
    SILENT
  }

  static final byte[] BODY = "0123456789".repeat(100).getBytes(StandardCharsets.US_ASCII);

  private final ServerSocket listener;
  private final List<Reply> script;
  private final AtomicInteger requests = new AtomicInteger();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final CountDownLatch closed = new CountDownLatch(1);

  FakeInstance(Reply... script) throws IOException {
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.script = List.of(script);
    Thread.ofPlatform().daemon(true).start(this::accept);
  }

  int port() {
    return listener.getLocalPort();
  }

  int requests() {
    return requests.get();
  }

  Backend backend(String id, java.time.Duration readTimeout) {
    return new Backend(id, "127.0.0.1", port(), readTimeout);
  }

  private void accept() {
    try {
      while (true) {
        Socket s = listener.accept();
        sockets.add(s);
        Thread.ofPlatform().daemon(true).start(() -> serve(s));
      }
    } catch (IOException closedListener) {
      // the test ended
    }
  }

  private void serve(Socket s) {
    try (s) {
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      while (readRequest(in)) {
        int n = requests.getAndIncrement();
        Reply reply = n < script.size() ? script.get(n) : Reply.OK;
        if (reply == Reply.SILENT) {
          closed.await();
          return;
        }
        String length = reply == Reply.NO_LENGTH ? "" : "Content-Length: " + BODY.length + "\r\n";
        out.write(
            ("HTTP/1.1 200 OK\r\nContent-Type: audio/wav\r\n" + length + "\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(BODY);
        out.flush();
        if (reply != Reply.OK) {
          return; // OK_THEN_CLOSE and NO_LENGTH end the connection
        }
      }
    } catch (IOException | InterruptedException e) {
      // the router closed the connection, or the test ended
    }
  }

  /** Reads one request head and its Content-Length body; false at the connection's end. */
  private static boolean readRequest(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        return false;
      }
      head.write(b);
    }
    String h = head.toString(StandardCharsets.US_ASCII).toLowerCase(Locale.ROOT);
    int at = h.indexOf("content-length:");
    if (at >= 0) {
      in.readNBytes(Integer.parseInt(h.substring(at + 15, h.indexOf("\r\n", at)).trim()));
    }
    return true;
  }

  @Override
  public void close() throws IOException {
    closed.countDown();
    listener.close();
    for (Socket s : sockets) {
      s.close();
    }
  }
}
