package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayCommandTest {
  static final Path EXAMPLES = Path.of("..", "testdata", "quickstart-2026-11-30-1140");
  static final String QMAX =
      EXAMPLES.resolve("qmax-quickstart-http-stream-local500mcpu-04a8ae75.json").toString();
  static final String TTOTAL =
      EXAMPLES.resolve("ttotal-quickstart-force-desired-local500mcpu-04a8ae75.json").toString();
  static final String PLAN = EXAMPLES.resolve("plan-quickstart.json").toString();

  @TempDir Path dir;

  private CliRun replay(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "replay";
    System.arraycopy(args, 0, all, 1, args.length);
    return CliRun.of(new TtsBench(), all);
  }

  private String[] artifacts(String... extra) {
    String[] base = {
      "--model",
      "quickstart",
      "--state-dir",
      dir.resolve("state").toString(),
      "--plan",
      PLAN,
      "--qmax",
      QMAX,
      "--ttotal",
      TTOTAL
    };
    String[] all = new String[base.length + extra.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(extra, 0, all, base.length, extra.length);
    return all;
  }

  @Test
  void replay_noTrace_isAUsageError() {
    CliRun run = replay(artifacts());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "error: Error: Missing required argument (specify one of these):"
                + " (--trace=FILE | --calibration=FILE)\n"
                + "Try 'tts-bench replay --help'.\n");
  }

  @Test
  void replay_traceWithoutSurgeAt_isAUsageErrorNamingTheFix() throws IOException {
    Path trace = Files.writeString(dir.resolve("t.csv"), "time_s,rps\n0,5\n60,0\n");

    CliRun run = replay(artifacts("--trace", trace.toString()));

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "error: --surge-at is required with --trace: say where the trace's surge starts"
                + " (e.g. --surge-at 60s), or use --calibration\n"
                + "Try 'tts-bench replay --help'.\n");
  }

  @Test
  void replay_traceWithABadLine_refusedBeforeTouchingTheEndpoint() throws IOException {
    Path trace = Files.writeString(dir.resolve("bad.csv"), "time_s,rps\n0,5\n30,fast\n60,0\n");

    CliRun run = replay(artifacts("--trace", trace.toString(), "--surge-at", "30s"));

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).startsWith("error: ").contains(trace.toString(), "line 3", "fast");
    assertThat(run.err()).doesNotContain("speech-quickstart");
  }

  @Test
  void replay_unknownInitialInstances_isAUsageErrorNamingTheChoices() throws IOException {
    Path trace = Files.writeString(dir.resolve("t.csv"), "time_s,rps\n0,5\n30,10\n60,0\n");

    CliRun run =
        replay(
            artifacts(
                "--trace", trace.toString(), "--surge-at", "30s", "--initial-instances", "cold"));

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "error: --initial-instances (cold) must be 'fresh' (deployed for the replay) or"
                + " 'warm' (serving long before it)\n"
                + "Try 'tts-bench replay --help'.\n");
  }

  @Test
  void replay_initialInstances_isRecordedAsParsed() throws IOException {
    Path trace = Files.writeString(dir.resolve("t.csv"), "time_s,rps\n0,5\n30,10\n60,0\n");
    ReplayCommand command = new ReplayCommand();
    Cli.commandLine(command)
        .parseArgs(
            artifacts(
                "--trace", trace.toString(), "--surge-at", "30s", "--initial-instances", " WARM"));

    // the report reads one spelling: "WARM" recorded as given printed nothing there
    assertThat(command.parameters(java.time.Duration.ZERO))
        .containsEntry("initial_instances", "warm");
  }

  @Test
  void replay_noEndpoint_failsNamingIt() throws IOException {
    Path trace = Files.writeString(dir.resolve("t.csv"), "time_s,rps\n0,5\n30,10\n60,0\n");

    CliRun run = replay(artifacts("--trace", trace.toString(), "--surge-at", "30s"));

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).startsWith("error: ").contains("speech-quickstart");
  }
}
