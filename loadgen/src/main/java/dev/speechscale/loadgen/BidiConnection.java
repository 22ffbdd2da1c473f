package dev.speechscale.loadgen;

import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.ResponseBreakdown;
import dev.speechscale.platform.SynthesisRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One worker's WebSocket session on {@code /invocations-bidirectional-stream}, kept open across
 * requests, on a plain socket read from the worker's own thread (see {@link HttpStreamConnection}
 * for why no client library).
 *
 * <p>Per request: send one JSON text message ({@code text}, {@code voice}, {@code speed}, {@code
 * request_id}), then read {@code synthesis_start}, binary PCM frames (TTFAB = arrival of the first
 * binary frame; PCM has no header), and {@code synthesis_complete}. An {@code error} message ends
 * the request and keeps the session: its {@code status} (503/408/429 → rejected, other 4xx → client
 * error) or, without one, its code ({@code queue_saturated}, {@code request_stale}, {@code
 * shutting_down} → rejected; {@code invalid_request}, {@code session_busy} → client error; {@code
 * engine_error}, {@code client_too_slow}, anything else → server error) decides the outcome. A
 * session that closes mid-request is a server error after {@code synthesis_start} and a transport
 * error before it; a request that finds its reused session already closed (an idle timeout) before
 * anything arrived is resent once on a fresh session, keeping its send time. Messages carrying
 * another request's id (a late reply to a request that timed out) are skipped — but a timeout
 * closes the session anyway, so they are rare.
 *
 * <p>One unit although longer than most classes here: the session's lifecycle (upgrade, deadline
 * guard, close) and the per-request reading share the socket state, and splitting them would only
 * pass that state around.
 */
final class BidiConnection implements Invoker.Connection {
  static final JsonMapper JSON = JsonMapper.builder().build();

  private final KeptSocket session;
  private final String idPrefix;
  private final Runnable onClose;
  private long requests;

  BidiConnection(KeptSocket session, String idPrefix, Runnable onClose) {
    this.session = session;
    this.idPrefix = idPrefix;
    this.onClose = onClose;
  }

  @Override
  public Invocation invoke(SynthesisRequest request) {
    String requestId = idPrefix + "-" + requests++;
    byte[] message = request.toSessionJson(requestId).getBytes(StandardCharsets.UTF_8);
    long sent = session.clock.nanoTime();
    long deadline = sent + session.timeoutNanos;
    for (int attempt = 0; ; attempt++) {
      boolean reused = session.socket != null;
      Exchange exchange = new Exchange(sent);
      Invocation result = attempt(exchange, requestId, message, deadline);
      boolean stale =
          reused
              && attempt == 0
              && result.outcome() == Outcome.TRANSPORT_ERROR
              && !exchange.started
              && !exchange.timedOut;
      if (!stale) {
        return result;
      }
      // the server closed an idle session before this request got anything: resend once on a
      // fresh session, keeping the original send time
    }
  }

  private Invocation attempt(Exchange exchange, String requestId, byte[] message, long deadline) {
    try {
      if (session.socket == null) {
        Invocation refused = open(exchange.sent, deadline); // arms the guard for the handshake too
        if (refused != null) {
          return refused;
        }
      } else {
        Objects.requireNonNull(session.guard, "an open session has a guard").arm(deadline);
      }
      SocketInput input = Objects.requireNonNull(session.in, "an open session has an input");
      OutputStream output = Objects.requireNonNull(session.out, "an open session has an output");
      WebSocketFrames.write(output, WebSocketFrames.TEXT, message, true);
      Invocation result = exchange.readUntilDone(requestId, input, output);
      if (session.guard != null && session.guard.disarm()) {
        session.close(); // the deadline fired as the response ended: the socket is gone
      }
      return result;
    } catch (IOException e) {
      boolean fired =
          (session.guard != null && session.guard.disarm()) || e instanceof SocketTimeoutException;
      session.close();
      if (fired) {
        exchange.timedOut = true;
        return exchange.fail(
            Outcome.TRANSPORT_ERROR,
            "timed out: no synthesis_complete within the request timeout ("
                + session.timeoutNanos / 1_000_000
                + " ms)");
      }
      return exchange.fail(
          exchange.started ? Outcome.SERVER_ERROR : Outcome.TRANSPORT_ERROR,
          (exchange.started ? "the session broke mid-stream: " : "") + session.describe(e));
    }
  }

  /** One request's reading state. */
  private final class Exchange {
    final long sent;
    boolean started;
    boolean timedOut;
    long firstAudio = -1;
    long audioBytes;

    Exchange(long sent) {
      this.sent = sent;
    }

    Invocation readUntilDone(String requestId, SocketInput in, OutputStream out)
        throws IOException {
      int messageType = -1; // the opcode of the fragmented message in progress
      StringBuilder text = null;
      while (true) {
        WebSocketFrames.Frame frame = WebSocketFrames.read(in, messageType == WebSocketFrames.TEXT);
        String complete = null;
        switch (frame.opcode()) {
          case WebSocketFrames.BINARY -> {
            audio(frame);
            messageType = frame.fin() ? -1 : WebSocketFrames.BINARY;
          }
          case WebSocketFrames.TEXT -> {
            if (frame.fin()) {
              complete = frame.text();
            } else {
              messageType = WebSocketFrames.TEXT;
              text = new StringBuilder(frame.text());
            }
          }
          case WebSocketFrames.CONTINUATION -> {
            if (messageType == WebSocketFrames.TEXT && text != null) {
              text.append(frame.text());
              if (frame.fin()) {
                complete = text.toString();
                text = null;
              }
            } else {
              audio(frame);
            }
            if (frame.fin()) {
              messageType = -1;
            }
          }
          case WebSocketFrames.PING ->
              WebSocketFrames.write(
                  out,
                  WebSocketFrames.PONG,
                  Objects.requireNonNull(frame.payload(), "a ping's payload is always kept"),
                  true);
          case WebSocketFrames.PONG -> {}
          case WebSocketFrames.CLOSE -> {
            session.close();
            return fail(
                started ? Outcome.SERVER_ERROR : Outcome.TRANSPORT_ERROR,
                "the server closed the session"
                    + (started ? " mid-stream" : " before synthesis_start")
                    + closeReason(frame.payload()));
          }
          default -> throw new IOException("unknown WebSocket opcode " + frame.opcode());
        }
        if (complete != null) {
          Invocation done = onText(complete, requestId);
          if (done != null) {
            return done;
          }
        }
      }
    }

    private void audio(WebSocketFrames.Frame frame) {
      if (frame.length() > 0) {
        if (firstAudio < 0) {
          firstAudio = frame.arrivalNanos();
        }
        audioBytes += frame.length();
      }
    }

    /** Handles a server text message; returns the request's end, or null to keep reading. */
    private @Nullable Invocation onText(String message, String requestId) throws IOException {
      JsonNode node;
      try {
        node = JSON.readTree(message);
      } catch (JacksonException e) {
        throw new IOException("the server sent a text message that is not JSON: " + message, e);
      }
      String id = node.path("request_id").asString("unknown");
      if (!id.equals(requestId) && !id.equals("unknown")) {
        return null; // a late message for an earlier request
      }
      String type = node.path("type").asString("");
      return switch (type) {
        case "synthesis_start" -> {
          started = true;
          yield null;
        }
        case "synthesis_complete" ->
            new Invocation(
                audioBytes > 0 ? Outcome.OK : Outcome.SERVER_ERROR,
                200,
                sent,
                firstAudio,
                session.clock.nanoTime(),
                audioBytes,
                audioBytes > 0 ? null : "synthesis_complete without any audio frame",
                ResponseBreakdown.UNKNOWN);
        case "error" -> {
          int status = node.path("status").asInt(0);
          Outcome outcome =
              status > 0 ? Outcomes.ofStatus(status) : ofCode(node.path("error").asString(""));
          yield new Invocation(
              outcome == Outcome.OK ? Outcome.SERVER_ERROR : outcome,
              status,
              sent,
              firstAudio,
              session.clock.nanoTime(),
              audioBytes,
              "error message: " + HttpHead.abbreviate(message),
              ResponseBreakdown.UNKNOWN);
        }
        default -> null; // a message type this client does not need
      };
    }

    Invocation fail(Outcome outcome, String error) {
      return new Invocation(
          outcome,
          0,
          sent,
          firstAudio,
          session.clock.nanoTime(),
          audioBytes,
          error,
          ResponseBreakdown.UNKNOWN);
    }
  }

  private static Outcome ofCode(String code) {
    return switch (code) {
      case "queue_saturated", "request_stale", "shutting_down" -> Outcome.REJECTED;
      case "invalid_request", "session_busy" -> Outcome.CLIENT_ERROR;
      default -> Outcome.SERVER_ERROR;
    };
  }

  private static String closeReason(byte @Nullable [] payload) {
    if (payload == null || payload.length < 2) {
      return "";
    }
    int code = (payload[0] & 0xff) << 8 | (payload[1] & 0xff);
    String reason = new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8);
    return " (" + code + (reason.isEmpty() ? "" : " " + reason) + ")";
  }

  /**
   * Connects and upgrades; returns a failed invocation when the server refuses the upgrade, null
   * when the session is open.
   */
  private @Nullable Invocation open(long sent, long deadline) throws IOException {
    session.open(deadline);
    Objects.requireNonNull(session.guard, "an open session has a guard").arm(deadline);
    SocketInput input = Objects.requireNonNull(session.in, "an open session has an input");
    OutputStream output = Objects.requireNonNull(session.out, "an open session has an output");
    HttpHead head = WebSocketFrames.handshake(input, output, session.hostHeader, session.path);
    if (head.status() != 101) {
      HttpBody.Capture capture = new HttpBody.Capture();
      HttpBody.read(input, head, capture);
      session.close();
      Outcome outcome = Outcomes.ofStatus(head.status());
      return Outcomes.failed(
          outcome == Outcome.OK ? Outcome.TRANSPORT_ERROR : outcome,
          head.status(),
          sent,
          session.clock.nanoTime(),
          "WebSocket upgrade refused with HTTP "
              + head.status()
              + ": "
              + HttpHead.abbreviate(capture.text()));
    }
    return null;
  }

  @Override
  public void close() {
    OutputStream o = session.out;
    if (o != null) {
      try {
        WebSocketFrames.write(o, WebSocketFrames.TEXT, CLOSE_MESSAGE, true);
        WebSocketFrames.write(
            o, WebSocketFrames.CLOSE, WebSocketFrames.closePayload(1000, "done"), true);
      } catch (IOException e) {
        session.close(); // the session is already gone; nothing left to tell the server
      }
    }
    session.close();
    onClose.run();
  }

  private static final byte[] CLOSE_MESSAGE =
      "{\"type\":\"close\"}".getBytes(StandardCharsets.US_ASCII);
}
