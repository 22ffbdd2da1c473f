package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile suite, bounded (issue 11): 400 hostile requests of every kind against a real local
 * endpoint over loopback while a well-behaved client streams. Afterwards the instance holds no
 * request and no session, nothing was answered 500, and every well-behaved request got its whole
 * audio. The 20,000-request run and the soak are measurement runs ({@link HostileSuite#main}).
 */
class HostileSuiteTest {

  @Test
  void mix_kindNames_takesThoseKindsAndNamesAnUnknownOne() {
    assertThat(HostileSuite.Kind.mix("MALFORMED_JSON, GARBAGE_REQUEST"))
        .containsExactly(HostileSuite.Kind.MALFORMED_JSON, HostileSuite.Kind.GARBAGE_REQUEST);
    assertThat(HostileSuite.Kind.mix("abuse")).contains(HostileSuite.Kind.HUGE_BODY).hasSize(7);
    assertThatThrownBy(() -> HostileSuite.Kind.mix("MALFORMED_JSON,HUGE"))
        .hasMessageContaining("'HUGE' is not a kind")
        .hasMessageContaining("HUGE_BODY");
  }

  @TempDir Path dir;

  @Test
  void hostileRequests_againstARealEndpoint_leaveNoPermitNoSessionNo500() throws Exception {
    try (LocalEndpoint e = LocalEndpoint.deploy(dir, "hostile", HostileSuite.YAML, false)) {
      HostileSuite.Endpoint ep = HostileSuite.Endpoint.of(e);
      HostileSuite suite =
          new HostileSuite(URI.create(e.url()).getPort(), ep.instancePort(), 20261201L);
      HostileSuite.Tally t = suite.run(400, 4, 1, 0);
      System.out.println("hostile suite (bounded): " + t.summary());
      assertThat(t.hostile()).isEqualTo(400);
      for (HostileSuite.Kind k : HostileSuite.Kind.HOSTILE) {
        assertThat(t.sent.get(k).sum()).as("%s was exercised", k).isPositive();
      }
      assertThat(t.status(500)).as("no 500 for anything a client sent").isZero();
      assertThat(t.status(502)).as("the instance never failed").isZero();
      assertThat(t.validWithAudio.sum())
          .as("every well-behaved request got its whole audio")
          .isEqualTo(t.valid.sum());
      assertThat(t.serverFirstMicros)
          .as(
              "each of them carried the server's queue wait and engine first chunk through the router")
          .hasSize((int) t.validWithAudio.sum());
      String stats = ep.awaitQuiet(Duration.ofMinutes(2));
      assertThat(stats).contains("\"in_flight\":0,").contains("\"ws_sessions\":0");
    }
  }
}
