package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The common start of a sharded replay: computed from {@code --start-at} alone, so every shard
 * given the same instant lands on the same alarm-period boundary whatever its own clock reads.
 */
class ReplayStartTest {
  private static final Instant AT = Instant.parse("2026-12-08T10:00:07Z");

  @Test
  void startOn_aligned_isTheFirstBoundaryAtOrAfterTheInstant() {
    assertThat(ReplayRun.startOn(AT, Duration.ofSeconds(60)))
        .isEqualTo(Instant.parse("2026-12-08T10:01:00Z"));
    assertThat(ReplayRun.startOn(Instant.parse("2026-12-08T10:01:00Z"), Duration.ofSeconds(60)))
        .isEqualTo(Instant.parse("2026-12-08T10:01:00Z"));
    assertThat(ReplayRun.startOn(AT, Duration.ofSeconds(10)))
        .isEqualTo(Instant.parse("2026-12-08T10:00:10Z"));
  }

  @Test
  void startOn_notAligned_isTheInstant() {
    assertThat(ReplayRun.startOn(AT, Duration.ZERO)).isEqualTo(AT);
  }

  @Test
  void waitForStart_passed_namesTheFlagAndTheFix() {
    Clock after = Clock.fixed(AT.plusSeconds(2), ZoneOffset.UTC);
    List<String> progress = new ArrayList<>();
    assertThatThrownBy(() -> ReplayRun.waitForStart(AT, Duration.ZERO, after, progress::add))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("--start-at 2026-12-08T10:00:07Z")
        .hasMessageContaining("passed 2000 ms ago")
        .hasMessageContaining("give every shard a later --start-at");
    assertThat(progress).isEmpty();
  }

  @Test
  void waitForStart_atTheStart_returnsAtOnce() {
    Clock at = Clock.fixed(AT, ZoneOffset.UTC);
    List<String> progress = new ArrayList<>();
    ReplayRun.waitForStart(AT, Duration.ZERO, at, progress::add);
    assertThat(progress).containsExactly("replay: waiting 0.0 s for the common start " + AT);
  }
}
