package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressPrinterTest {
  @Test
  void format_durations_compactAndRounded() {
    assertThat(ProgressPrinter.format(Duration.ofMillis(5_400))).isEqualTo("5s");
    assertThat(ProgressPrinter.format(Duration.ofSeconds(245))).isEqualTo("4m05s");
    assertThat(ProgressPrinter.format(Duration.ofSeconds(3723))).isEqualTo("1h02m03s");
  }

  @Test
  void printer_ladder_printsRungElapsedEtaAndVerdicts() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    new LadderRunner(
            SimulatedMeasurer.serial(10),
            LadderHooks.defaults().withListener(new ProgressPrinter(out, 125)))
        .run(LadderSpec.of(List.of(10, 20), Duration.ofSeconds(4), Duration.ofSeconds(2), 1, 125));

    String text = bytes.toString(StandardCharsets.UTF_8);
    assertThat(text)
        // 2 coarse rungs + 4 guessed bisection rungs + the drift re-check, 4 s each
        .contains("qmax: run 1/1 rung 1 N=10 (coarse)", "ETA 28s")
        .contains("N=20 p95 TTFAB 200.0 ms", "breaches SLO")
        .contains("rung 3 N=15 (bisect)")
        .contains("qmax: run 1: bisection closed Q_max at 12")
        .contains("rung 6 N=10 (drift re-check)")
        .contains("qmax: run 1: drift within tolerance: N=10 re-measured at the end of run 1");
  }
}
