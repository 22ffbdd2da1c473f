package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The warm-up request that loads the HTTP, JSON and streaming path before {@code ready}: one real
 * request over loopback on a plain socket, answered 200, leaving no permit behind.
 */
class WarmHttpPathTest {
  @Test
  void warmHttpPath_streamsOneRequestAndReleasesItsPermit() throws Exception {
    try (TestServer s = TestServer.start(new ScriptedEngine(1, 1))) {
      int status = s.server.warmHttpPath();

      assertThat(status).isEqualTo(200);
      long deadline = System.nanoTime() + 10_000_000_000L; // the permit is released just after
      while (s.runtime.gate.snapshot().inFlight() != 0 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertThat(s.runtime.gate.snapshot().inFlight()).isZero();
      assertThat(s.server.metrics().responsesWithStatus(200)).isEqualTo(1);
    }
  }
}
