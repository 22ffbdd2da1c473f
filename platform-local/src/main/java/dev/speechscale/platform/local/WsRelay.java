package dev.speechscale.platform.local;

import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.client.WebSocketClient;

/**
 * One bidirectional session relayed to one instance for its whole life: frames are forwarded in
 * order both ways, and either side closing closes the other. The session counts as one request in
 * flight on its instance until it ends.
 */
final class WsRelay implements Session.Listener.AutoDemanding {
  private static final long CONNECT_TIMEOUT_S = 10;
  private static final long SEND_TIMEOUT_S = 30;

  private final Backend backend;
  private final WebSocketClient client;
  private final Runnable onEnd;
  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile Session downstream;
  private volatile Session upstream;

  WsRelay(Backend backend, WebSocketClient client, Runnable onEnd) {
    this.backend = backend;
    this.client = client;
    this.onEnd = onEnd;
  }

  @Override
  public void onWebSocketOpen(Session session) {
    this.downstream = session;
    try {
      upstream =
          client
              .connect(
                  new Upstream(),
                  URI.create("ws://" + backend.host() + ":" + backend.port() + Router.BIDI_PATH))
              .get(CONNECT_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (Exception e) {
      session.close(
          StatusCode.SERVER_ERROR,
          "instance " + backend.instanceId() + " did not accept the session: " + e.getMessage(),
          Callback.NOOP);
      end();
    }
  }

  @Override
  public void onWebSocketText(String message) {
    send(upstream, message);
  }

  @Override
  public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
    send(upstream, payload);
    callback.succeed();
  }

  @Override
  public void onWebSocketClose(int statusCode, String reason) {
    Session up = upstream;
    if (up != null && up.isOpen()) {
      up.close(statusCode, reason, Callback.NOOP);
    }
    end();
  }

  @Override
  public void onWebSocketError(Throwable cause) {
    Session up = upstream;
    if (up != null && up.isOpen()) {
      up.close(StatusCode.SERVER_ERROR, "client failed", Callback.NOOP);
    }
    end();
  }

  private void end() {
    if (ended.compareAndSet(false, true)) {
      onEnd.run();
    }
  }

  /** Sends in order: each frame is accepted before the next is read. */
  private static void send(Session to, Object frame) {
    if (to == null || !to.isOpen()) {
      return;
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    Callback cb = Callback.from(() -> done.complete(null), done::completeExceptionally);
    if (frame instanceof String text) {
      to.sendText(text, cb);
    } else {
      to.sendBinary(((ByteBuffer) frame).duplicate(), cb);
    }
    try {
      done.get(SEND_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (Exception e) {
      to.close(StatusCode.SERVER_ERROR, "relay send failed: " + e.getMessage(), Callback.NOOP);
    }
  }

  /** The instance side: frames go back to the client. */
  private final class Upstream implements Session.Listener.AutoDemanding {
    @Override
    public void onWebSocketText(String message) {
      send(downstream, message);
    }

    @Override
    public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
      send(downstream, payload);
      callback.succeed();
    }

    @Override
    public void onWebSocketClose(int statusCode, String reason) {
      Session down = downstream;
      if (down != null && down.isOpen()) {
        down.close(
            statusCode == StatusCode.NO_CODE ? StatusCode.NORMAL : statusCode,
            "instance " + backend.instanceId() + " closed: " + reason,
            Callback.NOOP);
      }
      end();
    }

    @Override
    public void onWebSocketError(Throwable cause) {
      Session down = downstream;
      if (down != null && down.isOpen()) {
        down.close(
            StatusCode.SERVER_ERROR,
            "instance " + backend.instanceId() + " failed: " + cause.getMessage(),
            Callback.NOOP);
      }
      end();
    }
  }
}
