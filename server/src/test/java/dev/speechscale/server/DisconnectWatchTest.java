package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The watch that tells a queued request its client left (issue 11; the CI flake of stop 18). */
class DisconnectWatchTest {

  /** A connected pair over loopback: the server side (watched, non-blocking) and the client. */
  private record Pair(SocketChannel server, SocketChannel client) implements AutoCloseable {
    static Pair open() throws Exception {
      try (ServerSocketChannel listener = ServerSocketChannel.open()) {
        listener.bind(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
        SocketChannel client = SocketChannel.open(listener.getLocalAddress());
        SocketChannel server = listener.accept();
        server.configureBlocking(false);
        return new Pair(server, client);
      }
    }

    @Override
    public void close() throws Exception {
      server.close();
      client.close();
    }
  }

  @Test
  void peerHangsUp_onGoneRuns() throws Exception {
    CountDownLatch gone = new CountDownLatch(1);
    try (DisconnectWatch watch = new DisconnectWatch();
        Pair pair = Pair.open();
        DisconnectWatch.Watch w = watch.watch(pair.server(), gone::countDown)) {
      pair.client().close();
      assertThat(gone.await(30, TimeUnit.SECONDS)).as("the hang-up was noticed").isTrue();
    }
  }

  @Test
  void peerHungUpBeforeTheWatchRegistered_onGoneRuns() throws Exception {
    CountDownLatch gone = new CountDownLatch(1);
    try (DisconnectWatch watch = new DisconnectWatch();
        Pair pair = Pair.open()) {
      pair.client().close();
      try (DisconnectWatch.Watch w = watch.watch(pair.server(), gone::countDown)) {
        assertThat(gone.await(30, TimeUnit.SECONDS)).as("the hang-up was noticed").isTrue();
      }
    }
  }

  /**
   * The server's own stack (Jetty) may read the end of stream first and close the channel while it
   * is watched. Closing a channel cancels its keys silently: no select ever reports it, so the
   * watch must notice the closed channel some other way, or the queued request holds its place
   * until its deadline (the failure in CI, stop 18: inFlight=2, queued=1 after 30 s).
   */
  @Test
  void channelClosedByTheServerWhileWatched_onGoneRuns() throws Exception {
    CountDownLatch gone = new CountDownLatch(1);
    try (DisconnectWatch watch = new DisconnectWatch();
        Pair pair = Pair.open();
        DisconnectWatch.Watch w = watch.watch(pair.server(), gone::countDown)) {
      awaitRegistered(pair.server());
      pair.server().close();
      assertThat(gone.await(30, TimeUnit.SECONDS)).as("the closed channel was noticed").isTrue();
    }
  }

  @Test
  void channelClosedBeforeTheWatchRegistered_onGoneRuns() throws Exception {
    CountDownLatch gone = new CountDownLatch(1);
    try (DisconnectWatch watch = new DisconnectWatch();
        Pair pair = Pair.open()) {
      pair.server().close();
      try (DisconnectWatch.Watch w = watch.watch(pair.server(), gone::countDown)) {
        assertThat(gone.await(30, TimeUnit.SECONDS)).as("the closed channel was noticed").isTrue();
      }
    }
  }

  @Test
  void pipelinedBytesWaiting_watchStopsWithoutReadingThemOrCallingGone() throws Exception {
    CountDownLatch gone = new CountDownLatch(1);
    try (DisconnectWatch watch = new DisconnectWatch();
        Pair pair = Pair.open()) {
      pair.client()
          .write(
              ByteBuffer.wrap(
                  "GET / HTTP/1.1\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
      try (DisconnectWatch.Watch w = watch.watch(pair.server(), gone::countDown)) {
        assertThat(gone.await(1500, TimeUnit.MILLISECONDS)).isFalse();
      }
      ByteBuffer read = ByteBuffer.allocate(64);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (read.position() < 16 && System.nanoTime() < deadline) {
        pair.server().read(read);
      }
      assertThat(read.position()).as("the pipelined bytes are still there to read").isEqualTo(16);
    }
  }

  @Test
  void watchClosedBeforeTheHangUp_onGoneNeverRuns() throws Exception {
    CountDownLatch gone = new CountDownLatch(1);
    try (DisconnectWatch watch = new DisconnectWatch();
        Pair pair = Pair.open()) {
      DisconnectWatch.Watch w = watch.watch(pair.server(), gone::countDown);
      w.close();
      pair.client().close();
      pair.server().close();
      assertThat(gone.await(1500, TimeUnit.MILLISECONDS)).isFalse();
    }
  }

  private static void awaitRegistered(SocketChannel channel) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!channel.isRegistered()) {
      assertThat(System.nanoTime())
          .as("the watch never registered the channel")
          .isLessThan(deadline);
      Thread.onSpinWait();
    }
  }
}
