package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.NanoClock;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SourceDateEpochTest {
  private static final Clock NOW =
      Clock.fixed(Instant.parse("2026-12-05T09:30:00.123456789Z"), ZoneOffset.UTC);

  @Test
  void unset_stampsWithTheFallbackClock() {
    assertThat(SourceDateEpoch.clock(Map.of(), NOW).instant()).isEqualTo(NOW.instant());
    assertThat(SourceDateEpoch.clock(Map.of("SOURCE_DATE_EPOCH", " "), NOW).instant())
        .isEqualTo(NOW.instant());
  }

  @Test
  void sourceDateEpoch_stampsThatSecond() {
    NanoClock clock = SourceDateEpoch.clock(Map.of("SOURCE_DATE_EPOCH", "1796400000"), NOW);

    Instant first = clock.instant();
    Instant second = clock.instant();

    assertThat(first).isEqualTo(Instant.parse("2026-12-04T16:00:00Z"));
    assertThat(second).isEqualTo(first);
  }

  @Test
  void badValue_failsNamingTheVariableTheValueAndTheFix() {
    for (String bad : new String[] {"yesterday", "-5", "1796400000.5"}) {
      NanoClock clock = SourceDateEpoch.clock(Map.of("SOURCE_DATE_EPOCH", bad), NOW);
      assertThatThrownBy(clock::instant)
          .isInstanceOf(CliException.class)
          .hasMessageContaining("SOURCE_DATE_EPOCH=" + bad)
          .hasMessageContaining("$(date +%s)")
          .hasMessageContaining("unset it");
    }
  }
}
