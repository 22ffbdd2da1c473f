package dev.speechscale.loadgen;

import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.ResponseBreakdown;
import dev.speechscale.platform.SynthesisRequest;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One worker's keep-alive HTTP/1.1 connection to {@code POST /invocations}, on a plain blocking
 * socket read from the worker's own thread.
 *
 * <p>Why a raw socket and not {@code java.net.http.HttpClient}: (1) accuracy — the first audio byte
 * is stamped when the read that carried it returned on this thread, with no hand-off through the
 * client's selector thread and body subscribers; (2) the container's in-band failure is a chunked
 * body aborted without its terminating chunk, which this parser sees as exactly that ({@link
 * HttpBody.End#TRUNCATED}) instead of a generic I/O error; (3) one socket per worker, pinned, so N
 * workers are exactly N connections (a shared pool can queue requests inside the client, which
 * looks exactly like server queueing); (4) speed — one blocking read per response with no socket
 * timeout (deadlines are a {@link Watchdog}'s), no per-request futures or publishers, the request
 * bytes built once per text: this is what keeps the generator near wrk's request rate
 * (measurements/loadgen-vs-wrk.md).
 *
 * <p>A request that finds its reused keep-alive connection closed by the server before any response
 * byte is resent once on a fresh connection, keeping the original send time (so the reconnect
 * counts in its latency). Any other failure closes the socket; the next request reconnects.
 */
final class HttpStreamConnection implements Invoker.Connection {
  private static final int MAX_CACHED_MESSAGES = 4096;

  private final InetSocketAddress address;
  private final byte[] headPrefix;
  private final long timeoutNanos;
  private final NanoClock clock;
  private final Watchdog watchdog;
  private final Runnable onClose;
  private final IdentityHashMap<SynthesisRequest, byte[]> messages = new IdentityHashMap<>();
  // the connection: null until the first request opens it and after it closes; guard and out are
  // set whenever socket is (in stays, so a failure can still ask how much the last one received)
  private @Nullable Socket socket;
  private Watchdog.@Nullable Guard guard;
  private @Nullable SocketInput in;
  private @Nullable OutputStream out;
  private boolean closed;

  HttpStreamConnection(
      InetSocketAddress address,
      String hostHeader,
      String path,
      long timeoutNanos,
      NanoClock clock,
      Watchdog watchdog,
      Runnable onClose) {
    this.address = address;
    this.timeoutNanos = timeoutNanos;
    this.clock = clock;
    this.watchdog = watchdog;
    this.onClose = onClose;
    this.headPrefix =
        ("POST "
                + path
                + " HTTP/1.1\r\nHost: "
                + hostHeader
                + "\r\nUser-Agent: speechscale-loadgen\r\nContent-Type: application/json\r\n"
                + "Accept: audio/wav\r\nContent-Length: ")
            .getBytes(StandardCharsets.US_ASCII);
  }

  @Override
  public Invocation invoke(SynthesisRequest request) {
    byte[] message = message(request);
    long sent = clock.nanoTime();
    long deadline = sent + timeoutNanos;
    for (int attempt = 0; ; attempt++) {
      boolean reused = socket != null;
      Watchdog.Guard g = null;
      try {
        if (socket == null) {
          open(deadline);
        }
        g = Objects.requireNonNull(guard, "an open connection has a guard");
        SocketInput input = Objects.requireNonNull(in, "an open connection has an input");
        OutputStream output = Objects.requireNonNull(out, "an open connection has an output");
        g.arm(deadline);
        input.resetCount();
        output.write(message);
        output.flush();
        Invocation result = response(sent, input);
        if (g.disarm()) {
          closeSocket(); // the deadline fired as the response ended: the socket is gone
        }
        return result;
      } catch (SocketTimeoutException e) {
        closeSocket();
        return timedOut(sent);
      } catch (IOException e) {
        boolean fired = g != null && g.disarm();
        boolean nothingReceived = in == null || in.bytesRead() == 0;
        closeSocket();
        if (fired) {
          return timedOut(sent);
        }
        if (reused && nothingReceived && attempt == 0 && !closed) {
          continue; // the server closed an idle keep-alive connection: resend once
        }
        return Outcomes.failed(
            Outcome.TRANSPORT_ERROR, 0, sent, clock.nanoTime(), describe(e, address));
      }
    }
  }

  private Invocation timedOut(long sent) {
    return Outcomes.failed(
        Outcome.TRANSPORT_ERROR,
        0,
        sent,
        clock.nanoTime(),
        "timed out: no complete response within the request timeout ("
            + timeoutNanos / 1_000_000
            + " ms)");
  }

  /** The request's bytes, built once per distinct request object (the text pool reuses them). */
  private byte[] message(SynthesisRequest request) {
    byte[] cached = messages.get(request);
    if (cached != null) {
      return cached;
    }
    byte[] body = request.toJson().getBytes(StandardCharsets.UTF_8);
    byte[] length =
        (Integer.toString(body.length) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] message = new byte[headPrefix.length + length.length + body.length];
    System.arraycopy(headPrefix, 0, message, 0, headPrefix.length);
    System.arraycopy(length, 0, message, headPrefix.length, length.length);
    System.arraycopy(body, 0, message, headPrefix.length + length.length, body.length);
    if (messages.size() >= MAX_CACHED_MESSAGES) {
      messages.clear();
    }
    messages.put(request, message);
    return message;
  }

  private Invocation response(long sent, SocketInput in) throws IOException {
    HttpHead head = HttpHead.read(in);
    if (head.status() != 200) {
      HttpBody.Capture capture = new HttpBody.Capture();
      HttpBody.End end = HttpBody.read(in, head, capture);
      long done = clock.nanoTime();
      if (head.close() || head.untilClose() || end == HttpBody.End.TRUNCATED) {
        closeSocket();
      }
      Outcome outcome = Outcomes.ofStatus(head.status());
      if (outcome == Outcome.OK) {
        outcome = Outcome.SERVER_ERROR; // a 2xx other than 200 is not the streaming contract
      }
      return Outcomes.failed(
          outcome,
          head.status(),
          sent,
          done,
          "HTTP " + head.status() + ": " + HttpHead.abbreviate(capture.text()));
    }
    boolean wav =
        head.contentType() != null && head.contentType().toLowerCase(Locale.ROOT).contains("wav");
    AudioMeter meter = new AudioMeter(wav);
    HttpBody.End end = HttpBody.read(in, head, meter);
    long done = clock.nanoTime();
    if (head.close() || head.untilClose() || end == HttpBody.End.TRUNCATED) {
      closeSocket();
    }
    String error = null;
    if (end == HttpBody.End.TRUNCATED) {
      error =
          "the 200 stream ended without its terminating chunk after "
              + meter.audioBytes()
              + " audio bytes (the container's in-band failure)";
    } else if (meter.problem() != null) {
      error = meter.problem();
    } else if (meter.audioBytes() == 0) {
      error = "the 200 response carried no audio";
    }
    return new Invocation(
        error == null ? Outcome.OK : Outcome.SERVER_ERROR,
        200,
        sent,
        meter.firstAudioNanos(),
        done,
        meter.audioBytes(),
        error,
        new ResponseBreakdown(
            head.queueWaitUs(),
            head.engineFirstChunkUs(),
            AudioSeconds.of(head.contentType(), meter),
            head.instance()));
  }

  static String describe(IOException e, InetSocketAddress address) {
    String what = e instanceof EOFException ? "connection closed" : e.getClass().getSimpleName();
    return what + " talking to " + address + ": " + e.getMessage();
  }

  private void open(long deadline) throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.setKeepAlive(true);
      long remainingMs = Math.max(1, (deadline - clock.nanoTime()) / 1_000_000);
      s.connect(address, (int) Math.min(Integer.MAX_VALUE, remainingMs));
      in = new SocketInput(s, clock);
      out = s.getOutputStream();
      guard = watchdog.guard(s);
      socket = s;
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  private void closeSocket() {
    Socket s = socket;
    socket = null;
    out = null;
    if (guard != null) {
      guard.release();
      guard = null;
    }
    Endpoints.closeQuietly(s);
  }

  @Override
  public void close() {
    closed = true;
    closeSocket();
    onClose.run();
  }
}
