package dev.speechscale.server;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jspecify.annotations.Nullable;

/**
 * Tells when an HTTP client hangs up while its request waits in the queue. Jetty reads nothing from
 * an HTTP/1.1 connection while its request is being handled (the body was read to its end), so a
 * client that closes its socket then goes unnoticed until its 30 s idle timeout, holding its place
 * in the queue and later running the engine for nobody.
 *
 * <p>The watch registers the connection's channel for reads with its own selector (a channel may
 * sit in several selectors; Jetty's has no read interest in it meanwhile) on one platform thread.
 * When the channel turns readable with no byte to read, the peer closed (FIN or RST): {@code
 * onGone} runs. When bytes are waiting (a pipelined request), the watch stops without reading them,
 * so Jetty still finds them after the response; that client is then only watched by the idle
 * timeout.
 *
 * <p>Closing a channel cancels its keys without any select reporting them, so a channel the server
 * stack itself closes (Jetty, on reading the end of stream first) would never turn readable here.
 * The watch therefore also sweeps its channels every {@link #SWEEP_MS} ms and treats a closed one
 * as gone (stop 18's CI failure: a hang-up still queued after 30 s).
 */
final class DisconnectWatch implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(DisconnectWatch.class.getName());

  private final Selector selector;

  /**
   * How often the watch looks for channels closed under it (a closed channel is never selected).
   */
  static final long SWEEP_MS = 200;

  private final ConcurrentLinkedQueue<Runnable> pending = new ConcurrentLinkedQueue<>();
  private final java.util.Set<Entry> watched = new java.util.HashSet<>(); // watch thread only
  private final Thread thread;
  private volatile boolean running = true;

  DisconnectWatch() {
    try {
      selector = Selector.open();
    } catch (IOException e) {
      throw new EngineException("cannot open the disconnect-watch selector: " + e.getMessage(), e);
    }
    thread = Thread.ofPlatform().name("disconnect-watch").daemon(true).start(this::loop);
  }

  /**
   * One watched request; closing it stops the watch (call it once the request leaves the queue).
   */
  interface Watch extends AutoCloseable {
    @Override
    void close();
  }

  /** Runs {@code onGone} (on the watch thread, so it must not block) when the peer hangs up. */
  Watch watch(SocketChannel channel, Runnable onGone) {
    Entry entry = new Entry(channel, onGone);
    pending.add(() -> entry.register(selector));
    selector.wakeup();
    return entry;
  }

  private void loop() {
    while (running) {
      try {
        selector.select(SWEEP_MS);
        for (Runnable r; (r = pending.poll()) != null; ) {
          r.run();
        }
        for (SelectionKey key : selector.selectedKeys()) {
          ((Entry) key.attachment()).readable(key);
        }
        selector.selectedKeys().clear();
        sweepClosed();
      } catch (IOException | RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "disconnect watch: " + e.getMessage(), e);
      }
    }
  }

  private void sweepClosed() {
    for (Entry entry : java.util.List.copyOf(watched)) {
      if (!entry.closed && !entry.channel.isOpen()) {
        entry.gone();
      }
    }
  }

  @Override
  public void close() {
    running = false;
    selector.wakeup();
    try {
      thread.join(java.time.Duration.ofSeconds(5));
      selector.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      LOG.log(System.Logger.Level.DEBUG, "closing the disconnect-watch selector", e);
    }
  }

  private final class Entry implements Watch {
    private final SocketChannel channel;
    private final Runnable onGone;
    private @Nullable SelectionKey key; // watch thread only; null until registered
    private volatile boolean closed;

    Entry(SocketChannel channel, Runnable onGone) {
      this.channel = channel;
      this.onGone = onGone;
    }

    void register(Selector on) {
      if (closed) {
        return;
      }
      try {
        key = channel.register(on, SelectionKey.OP_READ, this);
        watched.add(this);
      } catch (ClosedChannelException e) {
        gone();
      }
    }

    void readable(SelectionKey selected) {
      selected.cancel();
      watched.remove(this);
      if (closed) {
        return;
      }
      int waiting;
      try {
        waiting = available();
      } catch (IOException e) {
        waiting = 0; // a reset connection: gone
      }
      if (waiting == 0) {
        gone();
      }
    }

    private int available() throws IOException {
      // FIONREAD: bytes waiting without consuming them; 0 on a readable channel means end of stream
      return channel.socket().getInputStream().available();
    }

    private void gone() {
      watched.remove(this);
      if (key != null) {
        key.cancel();
      }
      closed = true;
      onGone.run();
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      pending.add(() -> {
        watched.remove(this);
        if (key != null) {
          key.cancel();
        }
      });
      selector.wakeup();
    }
  }
}
