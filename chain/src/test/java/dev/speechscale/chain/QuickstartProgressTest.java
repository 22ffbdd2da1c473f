package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class QuickstartProgressTest {

  private static String qmaxLine(dev.speechscale.artifacts.QmaxArtifact q) {
    StringWriter out = new StringWriter();
    new QuickstartProgress(new PrintWriter(out)).qmax(q);
    return out.toString();
  }

  @Test
  void qmax_ladderWithoutAnUncontendedServiceTime_saysSMeanIsUnknown() {
    // a hand-written ladder states no s_mean_s, as a derived one whose lowest rung was unusable
    String line = qmaxLine(Recorded.ladder(1, Recorded.step(1, 100)));

    assertThat(line)
        .isEqualTo(
            "  Q_max 1 (bracketed), S_mean unknown (no usable uncontended rung)"
                + System.lineSeparator());
  }

  @Test
  void qmax_recordedLadder_printsQMaxAndSMeanInMilliseconds() {
    String line = qmaxLine(Recorded.quickstartQmax());

    assertThat(line).matches("  Q_max \\d+ \\((bracketed|lower bound)\\), S_mean \\d+\\.\\d ms\\R");
  }
}
