package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class StabilityRuleTest {
  private static final Duration HOLD = Duration.ofSeconds(8);
  private static final Duration WINDOW = Duration.ofSeconds(5);

  @Test
  void defaultsFor_eachLadder_threeWindowsWithinTenPercentAndTwoSpare() {
    assertThat(StabilityRule.defaultsFor(HOLD, WINDOW))
        .isEqualTo(new StabilityRule(3, 10, Duration.ofSeconds(28))); // 8 + 4 x 5
    assertThat(StabilityRule.defaultsFor(Duration.ofSeconds(30), Duration.ofSeconds(20)).maxHold())
        .isEqualTo(Duration.ofSeconds(110));
    assertThat(StabilityRule.defaultsFor(Duration.ofSeconds(240), Duration.ofSeconds(60)).maxHold())
        .isEqualTo(Duration.ofSeconds(480));
  }

  @Test
  void withWindows_one_isTheSingleTrailingWindow() {
    StabilityRule one = StabilityRule.withWindows(1, 10, HOLD, WINDOW);

    assertThat(one.extendsHold()).isFalse();
    LadderSpec spec = LadderSpec.of(List.of(1), HOLD, WINDOW, 1, 1000).withStability(one);
    assertThat(spec.minimumHold()).isEqualTo(HOLD);
    assertThat(spec.maximumHold()).isEqualTo(HOLD);
  }

  @Test
  void ladderSpec_threeWindows_heldFromHoldPlusTwoWindowsToTheMaxHold() {
    LadderSpec spec =
        LadderSpec.of(List.of(1), HOLD, WINDOW, 1, 1000)
            .withStability(StabilityRule.defaultsFor(HOLD, WINDOW));

    assertThat(spec.minimumHold()).isEqualTo(Duration.ofSeconds(18));
    assertThat(spec.maximumHold()).isEqualTo(Duration.ofSeconds(28));
  }

  @Test
  void ladderSpec_maxHoldTooShortForTheWindows_isRefusedWithTheArithmetic() {
    LadderSpec spec = LadderSpec.of(List.of(1), HOLD, WINDOW, 1, 1000);

    assertThatThrownBy(() -> spec.withStability(new StabilityRule(3, 10, Duration.ofSeconds(17))))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("max hold (PT17S) must be at least hold + (stability windows - 1)")
        .hasMessageContaining("= PT18S, so 3 windows fit after the warm-up")
        .hasMessageContaining("lengthen the max hold or ask for fewer windows");
  }

  @Test
  void new_noWindows_isRefused() {
    assertThatThrownBy(() -> new StabilityRule(0, 10, Duration.ofSeconds(30)))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("stability windows (0) must be at least 1");
  }

  @Test
  void new_percentOutOfRange_isRefused() {
    assertThatThrownBy(() -> new StabilityRule(3, 0, Duration.ofSeconds(30)))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("stability percent (0.0) must be above 0 and at most 100");
    assertThatThrownBy(() -> new StabilityRule(3, 150, Duration.ofSeconds(30)))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("stability percent (150.0)");
  }
}
