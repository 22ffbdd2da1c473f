package dev.speechscale.platform.local;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.jspecify.annotations.Nullable;

/**
 * One bidirectional session relayed to one instance for its whole life: frames are forwarded in
 * order both ways, and either side closing closes the other. The session counts as one request in
 * flight on its instance from its open until it ends, and once in the router's session count.
 *
 * <p>Back-pressure: each frame is handed to the other side and awaited before the next one is read
 * (Jetty demands the next frame only when the listener returns), so nothing queues in the relay. A
 * side that does not take a frame within {@value #SEND_TIMEOUT_S} s ends the session: both sides
 * are closed (1008 to a client that stopped reading, 1011 otherwise) and disconnected. Every ending
 * runs {@link #end()}, which releases the instance's count and the session's, exactly once.
 *
 * <p>Public, with a public {@link Upstream}, only because Jetty binds a listener's methods through
 * a public lookup: a package-private listener fails every upgrade with 500 ("Unable to access
 * method ... onWebSocketOpen"), which is how every session through the router failed before {@code
 * WsRelayTest} existed.
 */
public final class WsRelay implements Session.Listener.AutoDemanding {
  private static final long SEND_TIMEOUT_S = 30;

  private final Backends backends;
  private final WebSocketClient client;
  private final AtomicInteger sessions;
  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile @Nullable Backend backend;
  private volatile @Nullable Session downstream;
  private volatile @Nullable Session upstream;

  WsRelay(Backends backends, WebSocketClient client, AtomicInteger sessions) {
    this.backends = backends;
    this.client = client;
    this.sessions = sessions;
  }

  @Override
  public void onWebSocketOpen(Session session) {
    this.downstream = session;
    sessions.incrementAndGet();
    Optional<Backend> picked = backends.acquire();
    if (picked.isEmpty()) {
      session.close(StatusCode.TRY_AGAIN_LATER, "no instance in service", Callback.NOOP);
      end();
      return;
    }
    Backend b = picked.get();
    backend = b;
    try {
      upstream = Router.connectBidi(client, new Upstream(), b);
    } catch (Exception e) {
      session.close(
          StatusCode.SERVER_ERROR,
          reason("instance " + b.instanceId() + " did not accept the session: " + e.getMessage()),
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
    closeAndEnd(upstream, statusCode, reason);
  }

  @Override
  public void onWebSocketError(Throwable cause) {
    closeAndEnd(upstream, StatusCode.SERVER_ERROR, "client failed");
  }

  /** Closes {@code other} with the code and reason if it is still open, and ends the session. */
  private void closeAndEnd(@Nullable Session other, int code, String reason) {
    if (other != null && other.isOpen()) {
      other.close(code, reason, Callback.NOOP);
    }
    end();
  }

  /** The instance's id, or {@code ?} before one was picked. */
  private String instanceId() {
    Backend b = backend;
    return b == null ? "?" : b.instanceId();
  }

  private void end() {
    if (ended.compareAndSet(false, true)) {
      Backend b = backend;
      if (b != null) {
        b.release();
      }
      sessions.decrementAndGet();
    }
  }

  /** Sends in order: each frame is accepted before the next is read; a side that stalls ends it. */
  private void send(@Nullable Session to, Object frame) {
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
    } catch (TimeoutException e) {
      boolean client = to == downstream;
      closeBoth(
          client ? StatusCode.POLICY_VIOLATION : StatusCode.SERVER_ERROR,
          (client ? "client_too_slow: " : "instance_too_slow: ")
              + "a frame waited "
              + SEND_TIMEOUT_S
              + " s to be read");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closeBoth(StatusCode.SERVER_ERROR, "relay interrupted");
    } catch (java.util.concurrent.ExecutionException e) {
      closeBoth(StatusCode.SERVER_ERROR, reason("relay send failed: " + e.getCause()));
    }
  }

  /** Closes both sides with the code and reason, then disconnects them, and ends the session. */
  private void closeBoth(int code, String reason) {
    for (Session s : new Session[] {downstream, upstream}) {
      if (s != null) {
        s.close(code, reason, Callback.from(s::disconnect, x -> s.disconnect()));
        CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS).execute(s::disconnect);
      }
    }
    end();
  }

  /** A close reason fits in 123 bytes (RFC 6455). */
  private static String reason(String text) {
    return text.length() <= 120 ? text : text.substring(0, 120);
  }

  /** The instance side: frames go back to the client. */
  public final class Upstream implements Session.Listener.AutoDemanding {
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
      closeAndEnd(
          downstream,
          statusCode == StatusCode.NO_CODE ? StatusCode.NORMAL : statusCode,
          reason("instance " + instanceId() + " closed: " + reason));
    }

    @Override
    public void onWebSocketError(Throwable cause) {
      closeAndEnd(
          downstream,
          StatusCode.SERVER_ERROR,
          reason("instance " + instanceId() + " failed: " + cause.getMessage()));
    }
  }
}
