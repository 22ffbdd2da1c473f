package dev.speechscale.loadgen;

import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.ResponseBreakdown;
import dev.speechscale.platform.SynthesisRequest;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Objects;

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

  private final KeptSocket session;
  private final byte[] headPrefix;
  private final Runnable onClose;
  private final IdentityHashMap<SynthesisRequest, byte[]> messages = new IdentityHashMap<>();
  private boolean closed;

  HttpStreamConnection(KeptSocket session, Runnable onClose) {
    this.session = session;
    this.onClose = onClose;
    this.headPrefix =
        ("POST "
                + session.path
                + " HTTP/1.1\r\nHost: "
                + session.hostHeader
                + "\r\nUser-Agent: speechscale-loadgen\r\nContent-Type: application/json\r\n"
                + "Accept: audio/wav\r\nContent-Length: ")
            .getBytes(StandardCharsets.US_ASCII);
  }

  @Override
  public Invocation invoke(SynthesisRequest request) {
    byte[] message = message(request);
    long sent = session.clock.nanoTime();
    long deadline = sent + session.timeoutNanos;
    for (int attempt = 0; ; attempt++) {
      boolean reused = session.socket != null;
      Watchdog.Guard g = null;
      try {
        if (session.socket == null) {
          session.open(deadline);
        }
        g = Objects.requireNonNull(session.guard, "an open connection has a guard");
        SocketInput input = Objects.requireNonNull(session.in, "an open connection has an input");
        OutputStream output =
            Objects.requireNonNull(session.out, "an open connection has an output");
        g.arm(deadline);
        input.resetCount();
        output.write(message);
        output.flush();
        Invocation result = response(sent, input);
        if (g.disarm()) {
          session.close(); // the deadline fired as the response ended: the socket is gone
        }
        return result;
      } catch (SocketTimeoutException e) {
        session.close();
        return timedOut(sent);
      } catch (IOException e) {
        boolean fired = g != null && g.disarm();
        boolean nothingReceived = session.in == null || session.in.bytesRead() == 0;
        session.close();
        if (fired) {
          return timedOut(sent);
        }
        if (reused && nothingReceived && attempt == 0 && !closed) {
          continue; // the server closed an idle keep-alive connection: resend once
        }
        return Outcomes.failed(
            Outcome.TRANSPORT_ERROR, 0, sent, session.clock.nanoTime(), session.describe(e));
      }
    }
  }

  private Invocation timedOut(long sent) {
    return Outcomes.failed(
        Outcome.TRANSPORT_ERROR,
        0,
        sent,
        session.clock.nanoTime(),
        "timed out: no complete response within the request timeout ("
            + session.timeoutNanos / 1_000_000
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
      long done = session.clock.nanoTime();
      if (head.close() || head.untilClose() || end == HttpBody.End.TRUNCATED) {
        session.close();
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
    long done = session.clock.nanoTime();
    if (head.close() || head.untilClose() || end == HttpBody.End.TRUNCATED) {
      session.close();
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

  @Override
  public void close() {
    closed = true;
    session.close();
    onClose.run();
  }
}
