package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.chain.QmaxRequest;
import dev.speechscale.chain.Replay;
import dev.speechscale.chain.TtotalRequest;
import dev.speechscale.chain.ValidateRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each step's request writes the command line that runs it again: parsing {@code
 * request.commandLine()} with the step's command gives the same request back, defaults resolved the
 * same way, so a quickstart's rerun line and an artifact's provenance can be pasted.
 */
class RequestRoundTripTest {

  /** {@code command} with {@code args} parsed into its options (nothing runs). */
  private static <T> T parsed(T command, List<String> args) {
    Cli.commandLine(command).parseArgs(args.toArray(String[]::new));
    return command;
  }

  /** The arguments of a command line after {@code prefix}. */
  private static List<String> after(String prefix, String commandLine) {
    assertThat(commandLine).startsWith(prefix + " ");
    return Arrays.asList(commandLine.substring(prefix.length() + 1).split(" "));
  }

  @Test
  void qmax_everyFlagGiven_commandLineParsesBackToTheRequest() {
    QmaxRequest typed =
        parsed(
                new QmaxCommand(),
                List.of(
                    "--model",
                    "kokoro",
                    "--state-dir",
                    "state",
                    "--slo-ms",
                    "2500",
                    "--transport",
                    "bidi",
                    "--concurrency",
                    "1,3,9",
                    "--hold",
                    "40",
                    "--window",
                    "15s",
                    "--settle",
                    "1500ms",
                    "--stability-windows",
                    "2",
                    "--stability-percent",
                    "12.5%",
                    "--max-hold",
                    "2m",
                    "--warmup",
                    "0s",
                    "--runs",
                    "2",
                    "--no-refine",
                    "--drift-check",
                    "bisection",
                    "--drift-tolerance",
                    "7.5",
                    "--drift-p95-tolerance",
                    "20%",
                    "--drift-rewarm-budget",
                    "90s",
                    "--no-idle-rung",
                    "--allow-unenforced-cpu",
                    "--texts",
                    "texts.txt",
                    "--seed",
                    "7",
                    "--events",
                    "events.jsonl"))
            .request();

    QmaxRequest again =
        parsed(new QmaxCommand(), after("tts-bench qmax", typed.commandLine())).request();

    assertThat(again).isEqualTo(typed);
    assertThat(again.parameters()).isEqualTo(typed.parameters());
  }

  @Test
  void qmax_platformDefaults_commandLineSpellsThemAndParsesBack() {
    QmaxRequest typed =
        parsed(new QmaxCommand(), List.of("--model", "kokoro", "--slo", "500ms")).request();

    QmaxRequest again =
        parsed(new QmaxCommand(), after("tts-bench qmax", typed.commandLine())).request();

    assertThat(again).isEqualTo(typed);
    assertThat(typed.commandLine()).contains(" --rungs 1,2,4,8,16,32 ", " --hold 30s ");
  }

  @Test
  void ttotal_everyFlagGiven_commandLineParsesBackToTheRequest() {
    TtotalRequest typed =
        parsed(
                new TtotalCommand(),
                List.of(
                    "--model",
                    "kokoro",
                    "--config",
                    "conf/endpoints.yaml",
                    "--qmax",
                    "q.json",
                    "--transport",
                    "bidi",
                    "--probe-concurrency",
                    "6",
                    "--recovery-window",
                    "45s",
                    "--settle",
                    "2500ms",
                    "--timeout",
                    "10m",
                    "--new-instance-for",
                    "30s",
                    "--allow-config-mismatch",
                    "--texts",
                    "texts.txt",
                    "--runs",
                    "3"))
            .request();

    TtotalRequest again =
        parsed(new TtotalCommand(), after("tts-bench ttotal", typed.commandLine())).request();

    assertThat(again).isEqualTo(typed);
    assertThat(again.parameters()).isEqualTo(typed.parameters());
  }

  @Test
  void ttotal_defaults_commandLineNamesTheLaddersTransportAndParsesBack() {
    Path qmax =
        Path.of(
            "..",
            "testdata",
            "quickstart-2026-12-01-2232",
            "qmax-quickstart-http-stream-local500mcpu-038ffb50.json");
    TtotalRequest typed =
        parsed(new TtotalCommand(), List.of("--model", "quickstart", "--qmax", qmax.toString()))
            .request();

    TtotalRequest again =
        parsed(new TtotalCommand(), after("tts-bench ttotal", typed.commandLine())).request();

    assertThat(again).isEqualTo(typed);
    assertThat(typed.commandLine()).contains(" --transport http-stream ", " --settle 10s ");
  }

  @Test
  void validate_everyFlagGiven_commandLineParsesBackToTheRequest() {
    ValidateRequest typed =
        parsed(
                new ValidateCommand(),
                List.of(
                    "--endpoint",
                    "speech-kokoro",
                    "--state-dir",
                    "state",
                    "--plan",
                    "plan.json",
                    "--live",
                    "--phase",
                    "1500ms",
                    "--transport",
                    "response-stream",
                    "--texts",
                    "texts.txt"))
            .request();

    ValidateRequest again =
        parsed(new ValidateCommand(), after("tts-bench validate", typed.commandLine())).request();

    assertThat(again).isEqualTo(typed);
    assertThat(again.parameters()).isEqualTo(typed.parameters());
  }

  @Test
  void validate_defaults_thePlanBesideTheConfigParsesBack() {
    ValidateRequest typed =
        parsed(new ValidateCommand(), List.of("--model", "kokoro", "--config", "conf/e.yaml"))
            .request();

    ValidateRequest again =
        parsed(new ValidateCommand(), after("tts-bench validate", typed.commandLine())).request();

    assertThat(again).isEqualTo(typed);
    assertThat(typed.plan())
        .isEqualTo(Path.of("conf/e.yaml").toAbsolutePath().resolveSibling("plan-kokoro.json"));
  }

  static final Path RUN = Path.of("..", "testdata", "quickstart-2026-12-01-2232");

  /** The recorded run's artifacts as replay's flags. */
  private static List<String> artifacts() {
    return List.of(
        "--plan", RUN.resolve("plan-quickstart.json").toString(),
        "--qmax", RUN.resolve("qmax-quickstart-http-stream-local500mcpu-038ffb50.json").toString(),
        "--ttotal",
            RUN.resolve("ttotal-quickstart-force-desired-local500mcpu-038ffb50.json").toString(),
        "--ttotal",
            RUN.resolve("ttotal-quickstart-force-desired-local500mcpu-038ffb50.json").toString());
  }

  /** Everything but the provenance's command as typed, which a rerun types differently. */
  private static void assertSameReplay(Replay.Request again, Replay.Request typed) {
    assertThat(again.arguments()).isEqualTo(typed.arguments());
    assertThat(again.parameters()).isEqualTo(typed.parameters());
    assertThat(again.target()).isEqualTo(typed.target());
    assertThat(again.trace()).isEqualTo(typed.trace());
    assertThat(again.seed()).isEqualTo(typed.seed());
    assertThat(again.live()).isEqualTo(typed.live());
    assertThat(again.prediction()).isEqualTo(typed.prediction());
    assertThat(again.inputs().ttotalFiles()).isEqualTo(typed.inputs().ttotalFiles());
  }

  @Test
  void replay_traceAndEveryFlag_commandLineParsesBackToTheRequest(@TempDir Path dir)
      throws IOException {
    Path trace = Files.writeString(dir.resolve("t.csv"), "time_s,rps\n0,5\n30,10\n60,0\n");
    List<String> args = new java.util.ArrayList<>(artifacts());
    args.addAll(
        List.of(
            "--model",
            "quickstart",
            "--trace",
            trace.toString(),
            "--surge-at",
            "30500ms",
            "--seed",
            "9",
            "--metric-delay",
            "1m",
            "--sample-every",
            "250ms",
            "--no-align",
            "--transport",
            "bidi",
            "--texts",
            "texts.txt",
            "--events",
            "events.jsonl",
            "--shard",
            "1/3",
            "--start-at",
            "2026-12-08T10:00:00Z",
            "--shard-wait",
            "90s",
            "--warmup",
            "0s",
            "--initial-instances",
            " WARM",
            "--pre-roll",
            "180s",
            "--speed",
            "warmup",
            "--host-speed",
            "off"));
    Replay.Request typed = parsed(new ReplayCommand(), args).request();

    Replay.Request again =
        parsed(new ReplayCommand(), after("tts-bench replay", typed.commandLine())).request();

    assertSameReplay(again, typed);
  }

  @Test
  void replay_shardWithoutStartOrEvents_namesTheMissingFlag() {
    List<String> args = new java.util.ArrayList<>(artifacts());
    args.addAll(List.of("--model", "quickstart", "--calibration", "cal.csv", "--shard", "1/2"));
    assertThatThrownBy(() -> parsed(new ReplayCommand(), args).request())
        .hasMessageContaining("--shard 1/2 needs --events FILE");
    args.addAll(List.of("--events", "e.jsonl"));
    assertThatThrownBy(() -> parsed(new ReplayCommand(), args).request())
        .hasMessageContaining("--shard 1/2 needs --start-at")
        .hasMessageContaining("the same UTC time");
  }

  @Test
  void replay_calibrationDefaults_commandLineParsesBackToTheRequest() {
    List<String> args = new java.util.ArrayList<>(artifacts());
    args.addAll(
        List.of("--model", "quickstart", "--calibration", "cal.csv", "--pre-roll", "window"));
    Replay.Request typed = parsed(new ReplayCommand(), args).request();

    Replay.Request again =
        parsed(new ReplayCommand(), after("tts-bench replay", typed.commandLine())).request();

    assertSameReplay(again, typed);
    assertThat(typed.commandLine())
        .contains(" --calibration cal.csv --quiet 60s --surge 150s --fall 150s ");
  }
}
