package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.QmaxArtifact;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tts-bench export} over the recorded quickstart's qmax artifact and event log. */
class ExportCommandTest {
  static final Path EXAMPLES = Path.of("..", "testdata", "quickstart-2026-11-30-1140");
  static final Path QMAX =
      EXAMPLES.resolve("qmax-quickstart-http-stream-local500mcpu-04a8ae75.json");
  static final Path EVENTS = EXAMPLES.resolve("qmax-events.jsonl");

  @TempDir Path dir;

  private static CliRun export(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "export";
    System.arraycopy(args, 0, all, 1, args.length);
    return CliRun.of(new TtsBench(), all);
  }

  @Test
  void export_qmaxAndEvents_writesTheLadderAHgrmPairPerRungAndTheEvents() throws IOException {
    CliRun run =
        export(
            "--qmax",
            QMAX.toString(),
            "--events",
            EVENTS.toString(),
            "--output-dir",
            dir.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    QmaxArtifact q = ArtifactCodec.readQmax(QMAX);
    assertThat(Files.readAllLines(dir.resolve("ladder.csv"))).hasSize(q.steps().size() + 1);
    long withHistograms = q.steps().stream().filter(s -> s.ttfabHistogram() != null).count();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.filter(f -> f.toString().endsWith("-ttfab.hgrm")).count())
          .isEqualTo(withHistograms)
          .isPositive();
    }
    assertThat(Files.readString(dir.resolve("rung-r0-n1-s0-ttfab.hgrm")))
        .contains("Percentile")
        .contains("#[Mean");
    List<String> events = Files.readAllLines(dir.resolve("events.csv"));
    assertThat(events).hasSize(Files.readAllLines(EVENTS).size() + 1);
    assertThat(events.get(0)).startsWith("load_model,run_index,step_index,concurrency,seq");
    assertThat(run.out()).contains("wrote " + dir.resolve("ladder.csv"));
  }

  @Test
  void export_nothingGiven_isAUsageError() {
    CliRun run = export("--output-dir", dir.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("give --qmax FILE, --events FILE or both");
  }

  @Test
  void export_missingEventsFile_namesItAndTheFix() {
    CliRun run = export("--events", dir.resolve("nope.jsonl").toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("nope.jsonl: no such file").contains("--events wrote");
  }
}
