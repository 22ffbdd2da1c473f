package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TextPoolTest {
  private static final List<String> TEXTS = List.of("a", "b", "c", "d", "e", "f", "g", "h");

  @Test
  void shuffled_seed42_isPinnedOnEveryPlatform() {
    assertThat(TextPool.shuffled(TEXTS, 42).order())
        .containsExactly("f", "e", "c", "b", "a", "g", "h", "d");
  }

  @Test
  void shuffled_sameSeed_sameOrder() {
    assertThat(TextPool.shuffled(TEXTS, 7).order()).isEqualTo(TextPool.shuffled(TEXTS, 7).order());
  }

  @Test
  void shuffled_otherSeed_otherOrderSameTexts() {
    List<String> a = TextPool.shuffled(TEXTS, 1).order();
    List<String> b = TextPool.shuffled(TEXTS, 2).order();

    assertThat(a).isNotEqualTo(b);
    assertThat(a).containsExactlyInAnyOrderElementsOf(TEXTS);
  }

  @Test
  void request_walksTheOrderAndWraps() {
    TextPool pool = TextPool.shuffled(List.of("one", "two", "three"), 3, "af_heart", 1.1);

    assertThat(pool.request(0).text()).isEqualTo(pool.order().get(0));
    assertThat(pool.request(4).text()).isEqualTo(pool.order().get(1));
    assertThat(pool.request(4).voice()).isEqualTo("af_heart");
    assertThat(pool.request(4).speed()).isEqualTo(1.1);
    assertThat(pool.request(4).stream()).isTrue();
  }

  @Test
  void chars_countsCodePoints() {
    TextPool pool = TextPool.shuffled(List.of("h\uD83D\uDE00i"), 0);

    assertThat(pool.chars(0)).isEqualTo(3);
  }

  @Test
  void shuffled_empty_refused() {
    assertThatThrownBy(() -> TextPool.shuffled(List.of(), 1))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("empty");
  }

  @Test
  void shuffled_blankText_refusedWithItsIndex() {
    assertThatThrownBy(() -> TextPool.shuffled(List.of("ok", " "), 1))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("text 1");
  }
}
