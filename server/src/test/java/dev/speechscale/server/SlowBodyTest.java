package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Bodies that trickle in take no place in the gate (issue 37, item 1): before the fix, two clients
 * that sent headers and four bytes of a 100-byte body held a two-place gate for the 10 s body
 * deadline, and every well-behaved request meanwhile got 503.
 */
class SlowBodyTest {

  /** Opens a connection that declares a 100-byte body, sends 4 bytes of it, and stops there. */
  private static Socket trickle(TestServer s) throws Exception {
    Socket socket = new Socket(java.net.InetAddress.getLoopbackAddress(), s.port());
    socket.setSoTimeout(30_000);
    socket.setTcpNoDelay(true);
    OutputStream out = socket.getOutputStream();
    out.write(RawHttp.head(100));
    out.write("{\"te".getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return socket;
  }

  private static void await(BooleanSupplier condition, String what, TestServer s) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + ": " + s.runtime.gate.snapshot());
      }
      Thread.onSpinWait();
    }
  }

  private static String reply(Socket socket) throws Exception {
    return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
  }

  @Test
  void invocations_twoTricklingBodies_holdNoGatePlaceAndAWellBehavedRequestIsServed()
      throws Exception {
    try (TestServer s =
            TestServer.start(
                new ScriptedEngine(1, 1), "--max-queue-depth", "2", "--engine-threads", "1");
        Socket first = trickle(s);
        Socket second = trickle(s)) {
      await(() -> s.runtime.bodyReaders.reading() == 2, "the two bodies were never being read", s);

      assertThat(s.runtime.gate.inFlight())
          .as("a body still on its way holds a gate place")
          .isZero();
      assertThat(s.post("{\"text\":\"well behaved\"}").statusCode()).isEqualTo(200);
      assertThat(s.get("/stats").body())
          .contains("\"reading_bodies\":2")
          .contains("\"in_flight\":0");
    }
  }

  @Test
  void invocations_aStreamOfTricklingConnections_evictsTheOldestAndAWellBehavedRequestIsServed()
      throws Exception {
    int readers = 4;
    int connections = 12;
    ScriptedEngine engine = new ScriptedEngine(1, 1);
    List<Socket> open = new ArrayList<>();
    try (TestServer s =
        TestServer.start(
            engine,
            "--max-queue-depth",
            "2",
            "--max-body-readers",
            Integer.toString(readers),
            "--body-read-timeout-s",
            "30")) {
      try {
        for (int i = 0; i < connections; i++) {
          open.add(trickle(s));
          int opened = i + 1;
          await(
              () -> s.runtime.bodyReaders.evictedTotal() == Math.max(0, opened - readers),
              "connection " + i + " evicted no older reader",
              s);
          assertThat(s.runtime.bodyReaders.reading()).isLessThanOrEqualTo(readers);
        }
        for (int i = 0; i < connections - readers; i++) { // the oldest gave way, in order
          assertThat(reply(open.get(i)))
              .as("connection %d", i)
              .startsWith("HTTP/1.1 408")
              .containsIgnoringCase("connection: close")
              .contains("\"error\":\"body_too_slow\"")
              .contains("MAX_BODY_READERS");
        }
        assertThat(s.runtime.gate.inFlight()).isZero();
        // HttpClient writes headers and body apart: often a reader of its own, evicting the oldest
        assertThat(s.post("{\"text\":\"still served\"}").statusCode()).isEqualTo(200);
      } finally {
        for (Socket socket : open) {
          socket.close();
        }
      }
      await(() -> s.runtime.bodyReaders.reading() == 0, "a reader place leaked after hang-ups", s);
      assertThat(s.runtime.gate.snapshot().admittedTotal()).isEqualTo(1);
      assertThat(engine.calls.get()).isEqualTo(1);
    }
  }

  @Test
  void invocations_bodyTrickledSlowerThanTheBound_gets408WithoutEverBeingAdmitted()
      throws Exception {
    ScriptedEngine engine = new ScriptedEngine(1, 1);
    try (TestServer s =
            TestServer.start(engine, "--max-queue-depth", "1", "--body-read-timeout-s", "0.5");
        Socket socket = trickle(s)) {
      String answer = reply(socket);

      assertThat(answer)
          .startsWith("HTTP/1.1 408")
          .contains("\"error\":\"body_too_slow\"")
          .contains("0.5 s (BODY_READ_TIMEOUT_S)");
      await(() -> s.runtime.bodyReaders.reading() == 0, "the reader place was never given back", s);
      assertThat(s.runtime.gate.snapshot().admittedTotal()).isZero();
      assertThat(engine.calls.get()).isZero();
    }
  }

  @Test
  void invocations_bodyInTwoParts_isAdmittedOnceWholeAndServed() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(1, 1);
    try (TestServer s = TestServer.start(engine, "--max-queue-depth", "1")) {
      byte[] body = "{\"text\":\"two parts\"}".getBytes(StandardCharsets.UTF_8);
      try (Socket socket = new Socket(java.net.InetAddress.getLoopbackAddress(), s.port())) {
        socket.setSoTimeout(30_000);
        socket.setTcpNoDelay(true);
        OutputStream out = socket.getOutputStream();
        out.write(RawHttp.head(body.length));
        out.write(body, 0, 5);
        out.flush();
        await(() -> s.runtime.bodyReaders.reading() == 1, "the first part was never read", s);
        assertThat(s.runtime.gate.snapshot().admittedTotal()).isZero();
        out.write(body, 5, body.length - 5);
        out.flush();
        assertThat(reply(socket)).startsWith("HTTP/1.1 200");
      }
      assertThat(s.runtime.gate.snapshot().admittedTotal()).isEqualTo(1);
      assertThat(s.runtime.bodyReaders.reading()).isZero();
    }
  }
}
