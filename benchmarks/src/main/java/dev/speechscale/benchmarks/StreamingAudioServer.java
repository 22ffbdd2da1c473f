package dev.speechscale.benchmarks;

import dev.speechscale.platform.NanoClock;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The open-loop benchmark's endpoint (measurements/open-loop.md): a streaming {@code POST
 * /invocations} that answers every request like the speech container does for a Kokoro example
 * request, at almost no cost, so the <em>client</em> is what is measured.
 *
 * <p>Each response is {@code 200 audio/wav}, chunked: after {@code firstMs} the head, the 44-byte
 * WAV header (24 kHz, 16-bit mono, sizes 0xFFFFFFFF as the container writes them) and the first PCM
 * piece, then the rest of {@code audioSeconds} of PCM in {@code chunks} pieces spread evenly until
 * {@code streamSeconds} after the request, then the terminating chunk. The defaults — 1.8 s of
 * audio (86,400 bytes, what Kokoro speaks for the example plan's 25 characters a request), first
 * chunk after 60 ms (the example's service time), the stream held open 2.5 s — make 5,000
 * requests/s hold about 12,500 streams open.
 *
 * <p>One thread, one NIO selector, a timer queue: no thread or virtual thread per connection, so
 * 15,000 open streams cost their sockets and a few objects each. Keep-alive; one request at a time
 * per connection (the load generator never pipelines).
 *
 * <p>{@code --pace burst} shapes the answer like a Kokoro container that queued the request: the
 * whole response (head, WAV header and every chunk) in one write {@code streamSeconds} after the
 * request — what the engine's 100 ms chunks look like when synthesis of a short text ends at once
 * ({@code --chunks 18}: 18 chunks of 4,800 bytes) — so each stream costs the client one or two
 * wake-ups instead of one per chunk.
 *
 * <p>{@code java ... StreamingAudioServer [--port 0] [--audio-seconds 1.8] [--stream-seconds 2.5]
 * [--chunks 10] [--first-ms 60] [--pace paced|burst]} prints {@code listening <port>} and serves
 * until killed; a line {@code stats} on stdin prints the counters.
 */
public final class StreamingAudioServer implements AutoCloseable {
  private static final int SAMPLE_RATE = 24_000;
  private static final byte[] HEAD =
      ("HTTP/1.1 200 OK\r\nContent-Type: audio/wav\r\nTransfer-Encoding: chunked\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII);

  private final ServerSocketChannel server;
  private final Selector selector;
  private final Thread loop;
  private final byte[] first;
  private final byte[] middle;
  private final byte[] last;
  private final int chunks;
  private final long firstNanos;
  private final long gapNanos;
  private final PriorityQueue<Conn> due =
      new PriorityQueue<>((a, b) -> Long.compare(a.dueNanos, b.dueNanos));
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong open = new AtomicLong();
  private volatile boolean closed;

  /** One client connection: its request buffer, its stream's progress and unwritten bytes. */
  private static final class Conn {
    final SocketChannel channel;
    final SelectionKey key;
    final ByteBuffer in = ByteBuffer.allocate(8192);
    int sent = -1; // chunks sent of the current response; -1: reading a request
    long dueNanos;
    long startNanos;
    @Nullable ByteBuffer pending;

    Conn(SocketChannel channel, SelectionKey key) {
      this.channel = channel;
      this.key = key;
    }
  }

  public StreamingAudioServer(
      int port, double audioSeconds, double streamSeconds, int chunks, long firstMs, boolean burst)
      throws IOException {
    if (chunks < 1 || audioSeconds <= 0 || streamSeconds * 1000 < firstMs) {
      throw new IllegalArgumentException(
          "need chunks >= 1, audio-seconds > 0 and stream-seconds*1000 >= first-ms");
    }
    int pcm = (int) Math.round(audioSeconds * SAMPLE_RATE) * 2;
    int piece = pcm / chunks;
    byte[] wavAndPiece = new byte[44 + piece];
    System.arraycopy(wavHeader(), 0, wavAndPiece, 0, 44);
    for (int i = 44; i < wavAndPiece.length; i++) {
      wavAndPiece[i] = (byte) (i * 31); // not silence, not meaningful
    }
    byte[] firstChunk = chunk(wavAndPiece, chunks == 1);
    byte[] p = new byte[piece];
    for (int i = 0; i < piece; i++) {
      p[i] = (byte) (i * 17);
    }
    this.middle = chunk(p, false);
    this.last = chunk(p, true);
    if (burst && chunks > 1) {
      // the whole response in one write once the stream's time is up
      byte[] all = concat(HEAD, firstChunk);
      for (int i = 1; i < chunks - 1; i++) {
        all = concat(all, middle);
      }
      this.first = concat(all, last);
      this.chunks = 1;
      this.firstNanos = Math.round(streamSeconds * 1e9);
      this.gapNanos = 0;
    } else {
      this.first = concat(HEAD, firstChunk);
      this.chunks = chunks;
      this.firstNanos = firstMs * 1_000_000L;
      this.gapNanos =
          chunks == 1 ? 0 : Math.round((streamSeconds * 1e9 - firstNanos) / (chunks - 1));
    }
    server = ServerSocketChannel.open();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 4096);
    server.configureBlocking(false);
    selector = Selector.open();
    server.register(selector, SelectionKey.OP_ACCEPT);
    loop = Thread.ofPlatform().name("streaming-audio-server").start(this::run);
  }

  public int port() {
    return server.socket().getLocalPort();
  }

  /** Requests received, responses completed, connections open. */
  public String stats() {
    return "requests " + requests.get() + " completed " + completed.get() + " open " + open.get();
  }

  private void run() {
    try {
      while (!closed) {
        long now = NanoClock.SYSTEM.nanoTime();
        Conn head = due.peek();
        long waitMs = head == null ? 100 : (head.dueNanos - now) / 1_000_000;
        if (waitMs <= 0) {
          selector.selectNow();
        } else {
          selector.select(Math.min(waitMs, 100));
        }
        for (SelectionKey k : selector.selectedKeys()) {
          if (!k.isValid()) {
            continue;
          }
          if (k.isAcceptable()) {
            accept();
          } else {
            Conn c = (Conn) k.attachment();
            if (k.isWritable()) {
              flush(c);
            }
            if (k.isValid() && k.isReadable()) {
              read(c);
            }
          }
        }
        selector.selectedKeys().clear();
        now = NanoClock.SYSTEM.nanoTime();
        while ((head = due.peek()) != null && head.dueNanos - now <= 0) {
          due.poll();
          next(head, now);
        }
      }
    } catch (IOException e) {
      if (!closed) {
        System.err.println("streaming server: " + e.getMessage());
      }
    }
  }

  private void accept() throws IOException {
    SocketChannel ch;
    while ((ch = server.accept()) != null) {
      ch.configureBlocking(false);
      ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
      SelectionKey key = ch.register(selector, SelectionKey.OP_READ);
      key.attach(new Conn(ch, key));
      open.incrementAndGet();
    }
  }

  private void read(Conn c) {
    try {
      int n = c.channel.read(c.in);
      if (n < 0) {
        drop(c);
        return;
      }
      if (c.sent >= 0) {
        return; // a pipelined request waits for this response to end
      }
      startIfComplete(c);
    } catch (IOException e) {
      drop(c);
    }
  }

  /** Starts the response when a whole request (head and declared body) is buffered. */
  private void startIfComplete(Conn c) {
    byte[] b = c.in.array();
    int have = c.in.position();
    int headEnd = -1;
    for (int i = 3; i < have; i++) {
      if (b[i] == '\n' && b[i - 1] == '\r' && b[i - 2] == '\n' && b[i - 3] == '\r') {
        headEnd = i + 1;
        break;
      }
    }
    if (headEnd < 0) {
      if (have == b.length) {
        drop(c); // a head over 8 KiB is not this benchmark's client
      }
      return;
    }
    int total = headEnd + TrivialHttpServer.contentLength(b, headEnd);
    if (total > b.length) {
      drop(c);
      return;
    }
    if (have < total) {
      return;
    }
    System.arraycopy(b, total, b, 0, have - total);
    c.in.position(have - total);
    requests.incrementAndGet();
    c.sent = 0;
    c.startNanos = NanoClock.SYSTEM.nanoTime();
    c.dueNanos = c.startNanos + firstNanos;
    due.add(c);
  }

  /** The next piece of {@code c}'s stream is due. */
  private void next(Conn c, long now) {
    if (!c.channel.isOpen()) {
      return;
    }
    if (c.pending != null) {
      c.dueNanos = now + 1_000_000; // the last piece is still being written
      due.add(c);
      return;
    }
    byte[] piece = c.sent == 0 ? first : c.sent == chunks - 1 ? last : middle;
    c.sent++;
    if (c.sent < chunks) { // scheduled before the write: a write that ends the stream resets sent
      c.dueNanos = c.startNanos + firstNanos + c.sent * gapNanos;
      due.add(c);
    }
    c.pending = ByteBuffer.wrap(piece);
    flush(c);
  }

  private void flush(Conn c) {
    ByteBuffer p = c.pending;
    if (p == null) {
      c.key.interestOps(SelectionKey.OP_READ);
      return;
    }
    try {
      c.channel.write(p);
    } catch (IOException e) {
      drop(c);
      return;
    }
    if (p.hasRemaining()) {
      c.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
      return;
    }
    c.pending = null;
    if (c.key.interestOps() != SelectionKey.OP_READ) {
      c.key.interestOps(SelectionKey.OP_READ);
    }
    if (c.sent == chunks) {
      completed.incrementAndGet();
      c.sent = -1;
      startIfComplete(c); // a request that came early
    }
  }

  private void drop(Conn c) {
    if (c.channel.isOpen()) {
      open.decrementAndGet();
    }
    c.key.cancel();
    try {
      c.channel.close();
    } catch (IOException ignored) {
      // closing a dead connection
    }
  }

  private static byte[] chunk(byte[] data, boolean terminate) {
    byte[] size = (Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] tail = (terminate ? "\r\n0\r\n\r\n" : "\r\n").getBytes(StandardCharsets.US_ASCII);
    return concat(concat(size, data), tail);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** The container's streaming WAV header: 24 kHz 16-bit mono, sizes unknown (0xFFFFFFFF). */
  private static byte[] wavHeader() {
    ByteBuffer h = ByteBuffer.allocate(44).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    h.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(0xFFFFFFFF);
    h.put("WAVEfmt ".getBytes(StandardCharsets.US_ASCII)).putInt(16);
    h.putShort((short) 1).putShort((short) 1).putInt(SAMPLE_RATE).putInt(SAMPLE_RATE * 2);
    h.putShort((short) 2).putShort((short) 16);
    h.put("data".getBytes(StandardCharsets.US_ASCII)).putInt(0xFFFFFFFF);
    return h.array();
  }

  @Override
  public void close() throws IOException {
    closed = true;
    selector.wakeup();
    try {
      loop.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (SelectionKey k : selector.keys()) {
      try {
        k.channel().close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
    selector.close();
    server.close();
  }

  public static void main(String[] args) throws Exception {
    int port = 0;
    double audio = 1.8;
    double stream = 2.5;
    int chunks = 10;
    long firstMs = 60;
    boolean burst = false;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[i + 1]);
        case "--audio-seconds" -> audio = Double.parseDouble(args[i + 1]);
        case "--stream-seconds" -> stream = Double.parseDouble(args[i + 1]);
        case "--chunks" -> chunks = Integer.parseInt(args[i + 1]);
        case "--first-ms" -> firstMs = Long.parseLong(args[i + 1]);
        case "--pace" -> burst = args[i + 1].equals("burst");
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    StreamingAudioServer s = new StreamingAudioServer(port, audio, stream, chunks, firstMs, burst);
    PrintStream out = System.out;
    out.println("listening " + s.port());
    out.flush();
    java.io.BufferedReader in =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.trim().equals("stats")) {
        out.println(s.stats());
        out.flush();
      }
    }
    s.loop.join(); // stdin closed: serve until killed
  }
}
