package dev.speechscale.platform.local;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.jspecify.annotations.Nullable;

/**
 * SageMaker Runtime's InvokeEndpointWithBidirectionalStream on the router ({@code POST
 * /endpoints/{name}/invocations-bidirectional-stream}, HTTP/2, AWS event-stream framing both ways),
 * bridged to one instance's WebSocket {@code /invocations-bidirectional-stream} for the stream's
 * life, as SageMaker bridges it to a container with the bidirectional-streaming label ({@link
 * BidiEvents} has the mapping).
 *
 * <p>The first event is read and checked before anything is committed, so a bad first event, or
 * none, is answered 400 {@code InputValidationError} (the SDK's {@code
 * InputValidationErrorException}); no instance in service is 503 {@code ServiceUnavailableError};
 * an instance that refuses the WebSocket is 500 {@code InternalServerError}. After the 200, a bad
 * event ends the stream with an {@code InputValidationError} exception event (the 2.40.2 SDK's
 * stream unmarshaller knows only the two stream errors, so it surfaces this one as its base {@code
 * SageMakerRuntimeHttp2Exception} with that error code), a container that closes abnormally with
 * {@code ModelStreamError} (its close code as {@code ErrorCode}), and a failed instance or a
 * stalled side with {@code InternalStreamFailure}. The container closing normally ends the
 * response; the client ending its input does not end the session by itself (WebSocket has no
 * half-close): the session's own protocol ends it (speech-server's {@code {"type":"close"}}), or
 * the client resets the stream, or the instance's idle timeout.
 *
 * <p>The stream counts as one request in flight on its instance, and once in the router's session
 * count, from the instance's choice until it ends; every ending runs {@link #finish}, which
 * releases both exactly once. Frames are relayed one at a time, each awaited, so nothing queues
 * here; a side that does not take a frame within {@value #SEND_TIMEOUT_S} s ends the stream.
 *
 * <p>Public, with a public {@link Upstream}, only because Jetty binds WebSocket listener methods
 * through a public lookup ({@link WsRelay} says how that was found). One unit although longer than
 * most classes here: both directions share the stream's one ending (written once, released once),
 * and splitting them would only pass that state around.
 */
public final class RuntimeBidiStream {
  private static final long SEND_TIMEOUT_S = 30;

  private final Backends backends;
  private final WebSocketClient client;
  private final AtomicInteger sessions;
  private final int maxSessions;
  private final RequestStats stats;
  private final int maxMessageBytes;
  private final AtomicBoolean finished = new AtomicBoolean();
  private final AtomicBoolean released = new AtomicBoolean();
  private final Object writeLock = new Object();
  private volatile @Nullable Backend backend;
  private volatile @Nullable Session upstream;

  // set first thing by serve(), the one entry point, before anything reads them
  @SuppressWarnings("NullAway.Init")
  private volatile Response response;

  @SuppressWarnings("NullAway.Init")
  private volatile Callback callback;

  RuntimeBidiStream(
      Backends backends,
      WebSocketClient client,
      AtomicInteger sessions,
      int maxSessions,
      RequestStats stats,
      int maxMessageBytes) {
    this.backends = backends;
    this.client = client;
    this.sessions = sessions;
    this.maxSessions = maxSessions;
    this.stats = stats;
    this.maxMessageBytes = maxMessageBytes;
  }

  /** Serves one stream; returns when the client's input has ended or the stream was ended. */
  void serve(Request request, Response response, Callback callback) {
    this.response = response;
    this.callback = callback;
    InputStream body = Content.Source.asInputStream(request);
    EventStreamReader reader = new EventStreamReader(body, maxMessageBytes + 64 * 1024);
    BidiEvents.Assembler assembler = new BidiEvents.Assembler(maxMessageBytes);
    BidiEvents.Frame first;
    try {
      first = firstFrame(reader, assembler);
    } catch (BidiEvents.BadEventException | EventStreamReader.MalformedException e) {
      refuse(400, "InputValidationError", String.valueOf(e.getMessage()));
      return;
    } catch (IOException e) {
      callback.failed(e);
      return;
    }
    if (!open()) {
      return;
    }
    relay(first);
    pump(reader, assembler);
  }

  private static BidiEvents.Frame firstFrame(
      EventStreamReader reader, BidiEvents.Assembler assembler)
      throws IOException, BidiEvents.BadEventException {
    while (true) {
      Optional<EventStream.Message> event = reader.next();
      if (event.isEmpty()) {
        throw new BidiEvents.BadEventException(
            "the request stream ended before its first complete PayloadPart; send at least one");
      }
      Optional<BidiEvents.Frame> frame = assembler.accept(event.get());
      if (frame.isPresent()) {
        return frame.get();
      }
    }
  }

  /**
   * Picks an instance, opens its WebSocket and commits the 200; false when it answered an error.
   */
  private boolean open() {
    if (sessions.get() >= maxSessions) {
      refuse(
          503,
          "ServiceUnavailableError",
          maxSessions + " bidirectional sessions are open on this endpoint; retry later");
      return false;
    }
    Optional<Backend> picked = backends.acquire();
    if (picked.isEmpty()) {
      refuse(503, "ServiceUnavailableError", "no instance of this endpoint is in service");
      return false;
    }
    Backend b = picked.get();
    backend = b;
    sessions.incrementAndGet();
    stats.invocation();
    try {
      upstream = Router.connectBidi(client, new Upstream(), b);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      release();
      refuse(500, "InternalServerError", "interrupted while opening the instance's session");
      return false;
    } catch (IOException | ExecutionException | TimeoutException e) {
      release();
      refuse(
          500,
          "InternalServerError",
          "instance " + b.instanceId() + " did not accept the WebSocket session: " + e);
      return false;
    }
    stats.status(200);
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/vnd.amazon.eventstream");
    response.getHeaders().put("x-Amzn-Invoked-Production-Variant", "AllTraffic");
    try {
      write(ByteBuffer.allocate(0));
    } catch (IOException e) {
      end(StatusCode.SHUTDOWN, "client gone before the stream opened", e);
      return false;
    }
    return true;
  }

  /** Reads the client's events until its input ends or the stream is over. */
  private void pump(EventStreamReader reader, BidiEvents.Assembler assembler) {
    try {
      while (!finished.get()) {
        Optional<EventStream.Message> event = reader.next();
        if (event.isEmpty()) {
          return; // input ended: the session's own protocol or the instance ends the stream
        }
        Optional<BidiEvents.Frame> frame = assembler.accept(event.get());
        if (frame.isPresent()) {
          relay(frame.get());
        }
      }
    } catch (BidiEvents.BadEventException | EventStreamReader.MalformedException e) {
      endWith(
          "InputValidationError",
          String.valueOf(e.getMessage()),
          "INVALID_EVENT",
          StatusCode.NORMAL);
    } catch (IOException e) {
      end(StatusCode.SHUTDOWN, "client stream failed", e);
    }
  }

  /** Sends one frame to the instance and waits for it to be taken. */
  private void relay(BidiEvents.Frame frame) {
    Session up = upstream;
    if (up == null || !up.isOpen() || finished.get()) {
      return;
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    org.eclipse.jetty.websocket.api.Callback cb =
        org.eclipse.jetty.websocket.api.Callback.from(
            () -> done.complete(null), done::completeExceptionally);
    switch (frame) {
      case BidiEvents.Frame.Text t -> up.sendText(t.text(), cb);
      case BidiEvents.Frame.Binary bin -> up.sendBinary(ByteBuffer.wrap(bin.bytes()), cb);
    }
    try {
      done.get(SEND_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      endWith(
          "InternalStreamFailure",
          "instance " + instanceId() + " took no frame for " + SEND_TIMEOUT_S + " s",
          null,
          StatusCode.SERVER_ERROR);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      endWith("InternalStreamFailure", "relay interrupted", null, StatusCode.SERVER_ERROR);
    } catch (ExecutionException e) {
      endWith(
          "InternalStreamFailure",
          "sending to instance " + instanceId() + " failed: " + e.getCause(),
          null,
          StatusCode.SERVER_ERROR);
    }
  }

  /** Writes bytes on the response, waiting at most the send timeout for the client to take them. */
  private void write(ByteBuffer bytes) throws IOException {
    synchronized (writeLock) {
      CompletableFuture<Void> done = new CompletableFuture<>();
      response.write(
          false, bytes, Callback.from(() -> done.complete(null), done::completeExceptionally));
      try {
        done.get(SEND_TIMEOUT_S, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new IOException("the client took no bytes for " + SEND_TIMEOUT_S + " s", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while writing to the client", e);
      } catch (ExecutionException e) {
        throw new IOException("writing to the client failed: " + e.getCause(), e.getCause());
      }
    }
  }

  /** Ends the stream with an exception event, closing the instance's session with {@code code}. */
  private void endWith(String exceptionType, String message, @Nullable String errorCode, int code) {
    if (finished.get()) {
      return;
    }
    try {
      write(ByteBuffer.wrap(EventStream.exception(exceptionType, message, errorCode)));
    } catch (IOException e) {
      end(code, reason(message), e);
      return;
    }
    end(code, reason(message), null);
  }

  /**
   * Closes the instance's session and ends the response: normally when {@code failure} is null,
   * else by failing it (an HTTP/2 reset). Releases the instance's count and the session's once.
   */
  private void end(int code, String reason, @Nullable Throwable failure) {
    if (!finished.compareAndSet(false, true)) {
      return;
    }
    Session up = upstream;
    if (up != null && up.isOpen()) {
      up.close(code, reason, org.eclipse.jetty.websocket.api.Callback.NOOP);
    }
    release();
    if (failure == null) {
      synchronized (writeLock) {
        response.write(true, ByteBuffer.allocate(0), callback);
      }
    } else {
      callback.failed(failure);
    }
  }

  /** The instance this stream is relayed to, for messages; {@code ?} before one is picked. */
  private String instanceId() {
    Backend b = backend;
    return b == null ? "?" : b.instanceId();
  }

  private void release() {
    Backend b = backend;
    if (b != null && released.compareAndSet(false, true)) {
      b.release();
      sessions.decrementAndGet();
    }
  }

  private void refuse(int status, String type, String message) {
    stats.status(status);
    Responses.awsError(response, callback, status, type, message);
  }

  /** A close reason fits in 123 bytes (RFC 6455). */
  private static String reason(String text) {
    return text.length() <= 120 ? text : text.substring(0, 120);
  }

  /** The instance side: each frame goes back as a response PayloadPart. */
  public final class Upstream implements Session.Listener.AutoDemanding {
    @Override
    public void onWebSocketText(String message) {
      forward(message.getBytes(StandardCharsets.UTF_8), BidiEvents.UTF8);
    }

    @Override
    public void onWebSocketBinary(
        ByteBuffer payload, org.eclipse.jetty.websocket.api.Callback callback) {
      byte[] bytes = new byte[payload.remaining()];
      payload.get(bytes);
      forward(bytes, BidiEvents.BINARY);
      callback.succeed();
    }

    @Override
    public void onWebSocketClose(int statusCode, String reason) {
      if (statusCode == StatusCode.NORMAL || statusCode == StatusCode.NO_CODE) {
        end(StatusCode.NORMAL, "instance closed", null);
        return;
      }
      endWith(
          "ModelStreamError",
          "instance " + instanceId() + " closed the session with " + statusCode + ": " + reason,
          Integer.toString(statusCode),
          StatusCode.NORMAL);
    }

    @Override
    public void onWebSocketError(Throwable cause) {
      endWith(
          "InternalStreamFailure",
          "instance " + instanceId() + " failed: " + cause.getMessage(),
          null,
          StatusCode.SERVER_ERROR);
    }

    private void forward(byte[] bytes, String dataType) {
      if (finished.get()) {
        return;
      }
      try {
        write(ByteBuffer.wrap(BidiEvents.payloadPart(bytes, dataType)));
      } catch (IOException e) {
        end(StatusCode.POLICY_VIOLATION, "client_too_slow or gone: " + e.getMessage(), e);
      }
    }
  }
}
