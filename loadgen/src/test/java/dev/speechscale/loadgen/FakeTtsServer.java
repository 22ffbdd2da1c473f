package dev.speechscale.loadgen;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small stand-in for the speech server over loopback: {@code POST /invocations} streaming a
 * chunked WAV (44-byte header glued to the first PCM chunk) and the WebSocket protocol, with a
 * service time, a bounded service parallelism (1 = a serial engine) and a scripted reply per
 * request. Binds 127.0.0.1:0; {@link #close()} stops every thread it started.
 */
final class FakeTtsServer implements AutoCloseable {
  /** What to do with one request. */
  enum Reply {
    OK,
    REJECT_503,
    BAD_400,
    ERROR_500,
    /** 200, some audio, then the connection drops without the terminating chunk. */
    ABORT_AFTER_200,
    /** Answers, then closes the connection (no keep-alive). */
    OK_THEN_CLOSE
  }

  static final int PCM_CHUNK_BYTES = 480;
  static final int CHUNKS = 3;

  /** The instance the fake says served each 200, as the local router's header would. */
  static final String INSTANCE = "i-fake-1";

  private final ServerSocket server;
  private final Thread acceptor;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private final Semaphore slots;
  private volatile Duration firstAudio;
  private volatile Duration rest;
  private final LongFunction<Reply> script;
  private final AtomicLong requests = new AtomicLong();
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger disconnects = new AtomicInteger();
  private final AtomicInteger inService = new AtomicInteger();
  private final AtomicInteger maxInService = new AtomicInteger();
  private final AtomicInteger outstanding = new AtomicInteger();
  private final AtomicInteger maxOutstanding = new AtomicInteger();
  private volatile boolean closed;

  /**
   * @param parallelism requests served at once (others wait, like a serial engine's queue)
   * @param firstAudio time from a request's service start to its first chunk
   * @param rest time from the first chunk to the end
   * @param script the reply for request number n (0-based, in arrival order)
   */
  FakeTtsServer(int parallelism, Duration firstAudio, Duration rest, LongFunction<Reply> script)
      throws IOException {
    this.slots = new Semaphore(parallelism, true);
    this.firstAudio = firstAudio;
    this.rest = rest;
    this.script = script;
    this.server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
    this.acceptor = Thread.ofVirtual().name("fake-tts-accept").start(this::accept);
  }

  static FakeTtsServer fast() throws IOException {
    return new FakeTtsServer(64, Duration.ZERO, Duration.ZERO, n -> Reply.OK);
  }

  /** One request at a time, no service time, request n answered with {@code script(n)}. */
  static FakeTtsServer scripted(LongFunction<Reply> script) throws IOException {
    return new FakeTtsServer(1, Duration.ZERO, Duration.ZERO, script);
  }

  /** Changes the service time of requests that start from now on (a machine that drifts). */
  void serviceTimes(Duration firstAudio, Duration rest) {
    this.firstAudio = firstAudio;
    this.rest = rest;
  }

  URI baseUri() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  long requests() {
    return requests.get();
  }

  int connections() {
    return connections.get();
  }

  /** The most requests the server held at once (queued + in service). */
  int maxOutstanding() {
    return maxOutstanding.get();
  }

  /** The most requests in service at once (never above the parallelism). */
  int maxInService() {
    return maxInService.get();
  }

  private void accept() {
    while (!closed) {
      try {
        Socket s = server.accept();
        s.setTcpNoDelay(true);
        sockets.add(s);
        connections.incrementAndGet();
        threads.add(Thread.ofVirtual().name("fake-tts-conn").start(() -> serve(s)));
      } catch (IOException e) {
        if (!closed) {
          throw new IllegalStateException("accept failed", e);
        }
      }
    }
  }

  private void serve(Socket s) {
    try (s) {
      // no byte after a WebSocket upgrade request arrives before our 101, so nothing is lost in
      // this buffer when the WebSocket path reads the socket directly
      InputStream in = new BufferedInputStream(s.getInputStream());
      OutputStream out = s.getOutputStream();
      while (!closed) {
        Map<String, String> headers = new HashMap<>();
        String requestLine = readHead(in, headers);
        if (requestLine == null) {
          return;
        }
        if ("websocket".equalsIgnoreCase(headers.get("upgrade"))) {
          webSocket(s, out, headers.get("sec-websocket-key"));
          return;
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        in.readNBytes(length);
        if (!http(out)) {
          return;
        }
      }
    } catch (IOException e) {
      disconnects.incrementAndGet(); // the client went away, or the test closed us
    } finally {
      sockets.remove(s);
    }
  }

  /** Serves one HTTP request; false when the connection must close. */
  private boolean http(OutputStream out) throws IOException {
    long n = requests.getAndIncrement();
    Reply reply = script.apply(n);
    switch (reply) {
      case REJECT_503 -> {
        json(out, 503, "{\"error\":\"queue_saturated\",\"queue_depth\":1,\"max_queue_depth\":1}");
        return true;
      }
      case BAD_400 -> {
        json(out, 400, "{\"error\":\"invalid_request\",\"field\":\"text\"}");
        return true;
      }
      case ERROR_500 -> {
        json(out, 500, "{\"error\":\"synthesis_failed\"}");
        return true;
      }
      default -> {}
    }
    long arrived = System.nanoTime();
    enter();
    long queuedUs = (System.nanoTime() - arrived) / 1000;
    try {
      pause(firstAudio);
      out.write(
          ("HTTP/1.1 200 OK\r\nContent-Type: audio/wav\r\nTransfer-Encoding: chunked\r\n"
                  + (reply == Reply.OK_THEN_CLOSE ? "Connection: close\r\n" : "")
                  // the speech server's timing headers: the wait for a slot, the "engine" time
                  + "X-Queue-Wait-Us: "
                  + queuedUs
                  + "\r\nX-Engine-First-Chunk-Us: "
                  + firstAudio.toNanos() / 1000
                  // the local router's: which instance served it
                  + "\r\nX-Speechscale-Instance: "
                  + INSTANCE
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      byte[] first = new byte[44 + PCM_CHUNK_BYTES];
      System.arraycopy(wavHeader(), 0, first, 0, 44);
      chunk(out, first);
      if (reply == Reply.ABORT_AFTER_200) {
        out.flush();
        return false; // closes without the terminating chunk
      }
      pause(rest);
      for (int i = 1; i < CHUNKS; i++) {
        chunk(out, new byte[PCM_CHUNK_BYTES]);
      }
      out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return reply != Reply.OK_THEN_CLOSE;
    } finally {
      leave();
    }
  }

  private void webSocket(Socket s, OutputStream out, String key) throws IOException {
    out.write(
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: "
                + WebSocketFrames.accept(key)
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    SocketInput in = new SocketInput(s, System::nanoTime);
    while (!closed) {
      WebSocketFrames.Frame frame = WebSocketFrames.read(in, true);
      if (frame.opcode() == WebSocketFrames.CLOSE) {
        WebSocketFrames.write(out, WebSocketFrames.CLOSE, new byte[0], false);
        return;
      }
      if (frame.opcode() != WebSocketFrames.TEXT) {
        continue;
      }
      String message = frame.text();
      if (message.contains("\"type\":\"close\"")) {
        WebSocketFrames.write(
            out,
            WebSocketFrames.CLOSE,
            WebSocketFrames.closePayload(1000, "close requested"),
            false);
        return;
      }
      String id = requestId(message);
      long n = requests.getAndIncrement();
      Reply reply = script.apply(n);
      switch (reply) {
        case REJECT_503 ->
            text(
                out,
                "{\"type\":\"error\",\"request_id\":\""
                    + id
                    + "\",\"status\":503,\"error\":\"queue_saturated\"}");
        case BAD_400 ->
            text(
                out,
                "{\"type\":\"error\",\"request_id\":\""
                    + id
                    + "\",\"status\":400,\"error\":\"invalid_request\"}");
        case ERROR_500 ->
            text(
                out,
                "{\"type\":\"error\",\"request_id\":\""
                    + id
                    + "\",\"error\":\"engine_error\",\"message\":\"boom\"}");
        default -> {
          enter();
          try {
            pause(firstAudio);
            text(out, "{\"type\":\"synthesis_start\",\"request_id\":\"" + id + "\"}");
            WebSocketFrames.write(out, WebSocketFrames.BINARY, new byte[PCM_CHUNK_BYTES], false);
            if (reply == Reply.ABORT_AFTER_200) {
              return; // the session drops mid-stream
            }
            pause(rest);
            for (int i = 1; i < CHUNKS; i++) {
              WebSocketFrames.write(out, WebSocketFrames.BINARY, new byte[PCM_CHUNK_BYTES], false);
            }
            text(
                out,
                "{\"type\":\"synthesis_complete\",\"request_id\":\""
                    + id
                    + "\",\"total_duration_s\":0.03,\"elapsed_s\":0.01}");
          } finally {
            leave();
          }
          if (reply == Reply.OK_THEN_CLOSE) {
            return;
          }
        }
      }
    }
  }

  private static final Pattern REQUEST_ID = Pattern.compile("\"request_id\":\"([^\"]*)\"");

  private static String requestId(String message) {
    Matcher m = REQUEST_ID.matcher(message);
    return m.find() ? m.group(1) : "unknown";
  }

  private void enter() {
    int held = outstanding.incrementAndGet();
    maxOutstanding.accumulateAndGet(held, Math::max);
    slots.acquireUninterruptibly();
    int serving = inService.incrementAndGet();
    maxInService.accumulateAndGet(serving, Math::max);
  }

  private void leave() {
    inService.decrementAndGet();
    slots.release();
    outstanding.decrementAndGet();
  }

  private static void pause(Duration d) {
    if (d.isPositive()) {
      try {
        Thread.sleep(d);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void text(OutputStream out, String json) throws IOException {
    WebSocketFrames.write(out, WebSocketFrames.TEXT, json.getBytes(StandardCharsets.UTF_8), false);
  }

  private static void json(OutputStream out, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    out.write(
        ("HTTP/1.1 "
                + status
                + " X\r\nContent-Type: application/json\r\nContent-Length: "
                + b.length
                + (status == 503 ? "\r\nRetry-After: 1" : "")
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.write(b);
    out.flush();
  }

  private static void chunk(OutputStream out, byte[] data) throws IOException {
    out.write((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(data);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /**
   * {@link #wavHeader()} with a 12-byte {@code LIST} chunk inserted at byte {@code at} (12: before
   * {@code fmt }; 36: before {@code data}), then {@code audioBytes} bytes of silence: a valid WAV
   * whose chunks a reader must walk rather than assume.
   */
  static byte[] wavWithListChunk(int at, int audioBytes) {
    byte[] h = wavHeader();
    byte[] list = "LIST\u0004\u0000\u0000\u0000abcd".getBytes(StandardCharsets.ISO_8859_1);
    byte[] body = new byte[h.length + list.length + audioBytes];
    System.arraycopy(h, 0, body, 0, at);
    System.arraycopy(list, 0, body, at, list.length);
    System.arraycopy(h, at, body, at + list.length, h.length - at);
    return body;
  }

  /** The container's streaming header: PCM 16-bit mono 24 kHz, sizes 0xFFFFFFFF. */
  static byte[] wavHeader() {
    byte[] h = new byte[44];
    put(h, 0, "RIFF");
    le32(h, 4, 0xFFFFFFFF);
    put(h, 8, "WAVE");
    put(h, 12, "fmt ");
    le32(h, 16, 16);
    h[20] = 1;
    h[22] = 1;
    le32(h, 24, 24000);
    le32(h, 28, 48000);
    h[32] = 2;
    h[34] = 16;
    put(h, 36, "data");
    le32(h, 40, 0xFFFFFFFF);
    return h;
  }

  private static void put(byte[] b, int at, String tag) {
    byte[] t = tag.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(t, 0, b, at, t.length);
  }

  private static void le32(byte[] b, int at, int v) {
    b[at] = (byte) v;
    b[at + 1] = (byte) (v >>> 8);
    b[at + 2] = (byte) (v >>> 16);
    b[at + 3] = (byte) (v >>> 24);
  }

  /** Reads a request line and headers (names lower-cased); null at end of stream. */
  private static String readHead(InputStream in, Map<String, String> headers) throws IOException {
    String requestLine = line(in);
    if (requestLine == null) {
      return null;
    }
    String h;
    while ((h = line(in)) != null && !h.isEmpty()) {
      int colon = h.indexOf(':');
      if (colon > 0) {
        headers.put(
            h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
      }
    }
    return requestLine;
  }

  private static String line(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    int c;
    while ((c = in.read()) != -1) {
      if (c == '\n') {
        int len = b.length();
        return len > 0 && b.charAt(len - 1) == '\r' ? b.substring(0, len - 1) : b.toString();
      }
      b.append((char) c);
    }
    return b.isEmpty() ? null : b.toString();
  }

  /** Drops every open client connection (idle keep-alive ones included). */
  void dropConnections() {
    for (Socket s : sockets) {
      Endpoints.closeQuietly(s);
    }
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    Endpoints.closeQuietly(server);
    dropConnections();
    acceptor.join(Duration.ofSeconds(10));
    for (Thread t : threads) {
      t.interrupt(); // a simulated service time ends now
    }
    for (Thread t : threads) {
      t.join(Duration.ofSeconds(10));
    }
  }
}
