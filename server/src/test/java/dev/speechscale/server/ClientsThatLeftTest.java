package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A client that leaves while its request waits gives its place back at once (issue 11). */
class ClientsThatLeftTest {

  private static void awaitGate(TestServer s, int inFlight, int queued, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (s.runtime.gate.snapshot().inFlight() != inFlight
        || s.runtime.gate.snapshot().queued() != queued) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + ": " + s.runtime.gate.snapshot());
      }
      Thread.onSpinWait();
    }
  }

  /**
   * Waits (bounded) until the one request sent holds the execution slot. Admitted is not enough: a
   * request whose body came after its headers is admitted, then reads its body on a virtual thread
   * before it asks for a turn, and a request sent meanwhile with its whole body took the free slot
   * on the I/O thread first; the held request then queued behind it and the test waited 30 s for a
   * queued hang-up that was executing (stop 18's CI failure, and 2 in 40 runs beside two busy
   * loops).
   */
  private static void awaitHolding(TestServer s) {
    awaitGate(s, 1, 0, "the held request never started");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (s.runtime.gate.snapshot().executing() != 1) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "the held request never took the slot: " + s.runtime.gate.snapshot());
      }
      Thread.onSpinWait();
    }
  }

  /**
   * Sends a whole request over a raw socket behind the one running request, waits (bounded) until
   * it is queued, then hangs up.
   */
  private static void queueThenHangUp(TestServer s, String neverQueued) throws Exception {
    try (Socket socket = new Socket(java.net.InetAddress.getLoopbackAddress(), s.port())) {
      byte[] body = "{\"text\":\"leaves while queued\"}".getBytes(StandardCharsets.UTF_8);
      OutputStream out = socket.getOutputStream();
      out.write(RawHttp.head(body.length));
      out.write(body);
      out.flush();
      awaitGate(s, 2, 1, neverQueued);
    }
  }

  @Test
  void invocations_clientHangsUpWhileQueued_releasesItsPlaceAndNeverRunsTheEngine()
      throws Exception {
    ScriptedEngine engine = new ScriptedEngine(2, 1);
    try (TestServer s = TestServer.start(engine, "--max-queue-depth", "2")) {
      var held = s.postAsync("{\"text\":\"held\"}");
      awaitHolding(s);
      queueThenHangUp(s, "the second request never queued");

      awaitGate(s, 1, 0, "the client that left still holds its place");
      HttpResponse<byte[]> wellBehaved;
      var next = s.postAsync("{\"text\":\"next\"}");
      awaitGate(s, 2, 1, "the well-behaved request was not admitted");
      engine.allow(2);
      assertThat(held.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      wellBehaved = next.get(30, TimeUnit.SECONDS);
      assertThat(wellBehaved.statusCode()).isEqualTo(200);
      s.awaitIdle();
      assertThat(engine.calls.get()).as("the engine ran for the client that left").isEqualTo(2);
    }
  }

  @Test
  void websocket_sessionClosesWhileQueued_releasesItsPlaceAndNeverRunsTheEngine() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(2, 1);
    try (TestServer s = TestServer.start(engine, "--max-queue-depth", "2")) {
      var held = s.postAsync("{\"text\":\"held\"}");
      awaitHolding(s);
      try (WsClient ws = new WsClient(s.port())) {
        ws.sendText("{\"text\":\"leaves while queued\",\"request_id\":\"w1\"}");
        awaitGate(s, 2, 1, "the WebSocket request never queued");
      } // the session closes while its request is queued

      awaitGate(s, 1, 0, "the session that left still holds its place");
      engine.allow(1);
      assertThat(held.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      s.awaitIdle();
      assertThat(engine.calls.get()).as("the engine ran for the session that left").isEqualTo(1);
    }
  }

  @Test
  void idleTimeout_defaultRequestAge_outlivesTheQueueWait() throws Exception {
    try (TestServer s = TestServer.start(new ScriptedEngine(1, 1))) {
      assertThat(s.server.idleTimeoutMs())
          .as("a request queued up to MAX_REQUEST_AGE_S (56 s) must not be idled out first")
          .isGreaterThan(56_000);
    }
  }

  @Test
  void invocations_manyClientsHangUpWhileQueued_noPlaceLeaksAndTheEngineRunsOnlyForTheHolder()
      throws Exception {
    int hangUps = 300;
    ScriptedEngine engine = new ScriptedEngine(2, 1);
    try (TestServer s = TestServer.start(engine, "--max-queue-depth", "2")) {
      var held = s.postAsync("{\"text\":\"held\"}");
      awaitHolding(s);
      for (int i = 0; i < hangUps; i++) {
        queueThenHangUp(s, "hang-up " + i + " never queued");
        awaitGate(s, 1, 0, "hang-up " + i + " still holds its place");
      }
      engine.allow(1);
      assertThat(held.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      s.awaitIdle();
      assertThat(engine.calls.get()).isEqualTo(1);
      assertThat(s.runtime.gate.snapshot().admittedTotal()).isEqualTo(1 + hangUps);
    }
  }
}
