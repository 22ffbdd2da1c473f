package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TtotalCommandTest {

  @Test
  void ttotal_runsZero_isAUsageErrorBeforeAnyArtifactIsRead() {
    CliRun run =
        CliRun.of(
            new TtsBench(),
            "ttotal",
            "--model",
            "kokoro-82m",
            "--qmax",
            "no-such-qmax.json",
            "--runs",
            "0");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "error: --runs (0) must be at least 1; time one scale-out with --runs 1\n"
                + "Try 'tts-bench ttotal --help'.\n");
  }
}
