package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.TtotalArtifact;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RepeatedTtotalTest {
  private static final List<String> FAILED =
      List.of("scale-out 2 of 2 failed: no recovery within the timeout");

  private static String lastNote(TtotalArtifact t) {
    return t.notes().getLast();
  }

  @Test
  void withNotes_givenTimeout_namesIt() {
    TtotalArtifact t =
        RepeatedTtotal.withNotes(Recorded.quickstartTtotal(), FAILED, Duration.ofMinutes(10));

    assertThat(lastNote(t)).contains("1 of 2 scale-outs did not complete").contains("within PT10M");
  }

  @Test
  void withNotes_derivedTimeout_saysSoInsteadOfNull() {
    TtotalArtifact t = RepeatedTtotal.withNotes(Recorded.quickstartTtotal(), FAILED, null);

    assertThat(lastNote(t))
        .contains("within its timeout (derived from the platform) was slower")
        .doesNotContain("null");
    assertThat(t.notes()).containsSubsequence(FAILED);
  }
}
