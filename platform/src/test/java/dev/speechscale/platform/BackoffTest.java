package dev.speechscale.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BackoffTest {
  private static final Backoff SDK = Backoff.THROTTLING;

  @Test
  void ceiling_doublesFromTheBase_untilTheCap() {
    assertThat(SDK.ceiling(0)).isEqualTo(Duration.ofSeconds(1));
    assertThat(SDK.ceiling(1)).isEqualTo(Duration.ofSeconds(2));
    assertThat(SDK.ceiling(4)).isEqualTo(Duration.ofSeconds(16));
    assertThat(SDK.ceiling(5)).isEqualTo(Duration.ofSeconds(20));
    assertThat(SDK.ceiling(62)).isEqualTo(Duration.ofSeconds(20));
  }

  @Test
  void delay_fullJitter_staysWithinZeroAndTheCeiling() {
    SplittableRandom random = new SplittableRandom(42);
    for (int retry = 0; retry < 8; retry++) {
      for (int i = 0; i < 200; i++) {
        assertThat(SDK.delay(retry, random)).isBetween(Duration.ZERO, SDK.ceiling(retry));
      }
    }
  }

  @Test
  void delay_fullJitter_spreadsOverTheWholeRange() {
    SplittableRandom random = new SplittableRandom(7);
    long below = 0;
    long above = 0;
    for (int i = 0; i < 1000; i++) {
      long ms = SDK.delay(3, random).toMillis();
      below += ms < 2000 ? 1 : 0;
      above += ms > 6000 ? 1 : 0;
    }
    // uniform on [0, 8 s]: a quarter below 2 s and a quarter above 6 s, give or take
    assertThat(below).isBetween(180L, 320L);
    assertThat(above).isBetween(180L, 320L);
  }

  @Test
  void delay_sameSeed_sameSchedule() {
    SplittableRandom a = new SplittableRandom(3);
    SplittableRandom b = new SplittableRandom(3);
    for (int retry = 0; retry < 6; retry++) {
      assertThat(SDK.delay(retry, a)).isEqualTo(SDK.delay(retry, b));
    }
  }

  @Test
  void new_capBelowBase_isRefusedNamingBoth() {
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1), 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT2S")
        .hasMessageContaining("PT1S");
  }
}
