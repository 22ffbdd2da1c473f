package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.capacity.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlanCommandTest {
  static final Path EXAMPLES = Path.of("..", "examples", "kokoro-82m");
  static final String QMAX =
      EXAMPLES.resolve("qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json").toString();
  static final String TTOTAL =
      EXAMPLES.resolve("ttotal-kokoro-82m-force-desired-g5xlarge-8b1b96bc.json").toString();

  @TempDir Path dir;

  private CliRun plan(String... args) {
    return CliRun.of(new TtsBench(), prepend("plan", args));
  }

  private static String[] prepend(String first, String... rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }

  private CliRun kokoro(String... extra) {
    return plan(kokoroArgs(dir.resolve("plan.json"), extra));
  }

  /** The published example's plan arguments, writing to {@code out}, then {@code extra}. */
  private static String[] kokoroArgs(Path out, String... extra) {
    String[] base = {
      "--qmax",
      QMAX,
      "--ttotal",
      TTOTAL,
      "--peak-rps",
      "5000",
      "--trough-rps",
      "10",
      "--output",
      out.toString()
    };
    String[] all = new String[base.length + extra.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(extra, 0, all, base.length, extra.length);
    return all;
  }

  @Test
  void plan_publishedExample_printsThePublishedPolicyAndWritesAValidArtifact() throws IOException {
    CliRun run = kokoro();

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("verdict: warn (2)")
        .contains("scaling_target_value: 37.500")
        .contains("scale_in_threshold: 25.000")
        .contains("scale_out_cooldown_s: 30")
        .contains("scale_in_cooldown_s: 960")
        .contains("queue_max_depth: 50")
        .contains("max_instances: 280")
        .contains("N_safe           3")
        .contains("the published sizing would say 9")
        .contains("FirstChunkLatency p95 > 65.4 ms");
    assertThat(run.out().indexOf("measured\n")).isLessThan(run.out().indexOf("chosen\n"));
    assertThat(run.out().indexOf("chosen\n")).isLessThan(run.out().indexOf("derived\n"));
    assertThat(run.out().indexOf("WARN       surge_survival"))
        .isLessThan(run.out().indexOf("OK         measurement_trust"));
    String json = Files.readString(dir.resolve("plan.json"));
    assertThat(ArtifactCodec.validate(ArtifactKind.PLAN, json)).isEmpty();
    PlanArtifact p = ArtifactCodec.readPlan(dir.resolve("plan.json"));
    assertThat(p.scalingTargetValue()).isEqualTo(37.5);
    assertThat(p.minSafeInstances()).isEqualTo(3);
    assertThat(p.findings())
        .filteredOn(f -> f.name().equals("surge_survival"))
        .extracting(PlanArtifact.FindingEntry::verdict)
        .containsExactly(Verdict.WARN);
    assertThat(run.err()).contains("wrote " + dir.resolve("plan.json"));
  }

  @Test
  void plan_sourceDateEpoch_theSameCommandTwiceWritesTheSameBytes() throws IOException {
    String[] written = new String[2];
    for (int i = 0; i < 2; i++) {
      PlanCommand command =
          new PlanCommand(
              SourceDateEpoch.clock(Map.of("SOURCE_DATE_EPOCH", "1796400000"), Clock.systemUTC()));
      CliRun run = CliRun.of(command, kokoroArgs(dir.resolve("same.json")));
      assertThat(run.exitCode()).as(run.err()).isZero();
      written[i] = Files.readString(dir.resolve("same.json"));
    }

    assertThat(written[1])
        .isEqualTo(written[0])
        .contains("\"created_at\" : \"2026-12-04T16:00:00Z\"");
  }

  @Test
  void plan_provenance_recordsTheCommandAsTyped() throws IOException {
    kokoro();

    PlanArtifact p = ArtifactCodec.readPlan(dir.resolve("plan.json"));
    assertThat(p.provenance().command())
        .startsWith("tts-bench plan --qmax " + QMAX + " --ttotal ")
        .doesNotContain("plan plan");
  }

  @Test
  void plan_pricePerHour_reportsAndRecordsWhatTheFleetCosts() throws IOException {
    CliRun run = kokoro("--price-per-hour", "1.408");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains(
            "  at trough        1 instance x $1.408 = $1.41/hour; $39.11 per million requests at"
                + " 10 req/s")
        .contains(
            "  at peak          280 instances x $1.408 = $394.24/hour; $21.90 per million requests"
                + " at 5000 req/s")
        .contains("not shown        $ per audio hour: the qmax artifact records no audio duration");
    String json = Files.readString(dir.resolve("plan.json"));
    assertThat(ArtifactCodec.validate(ArtifactKind.PLAN, json)).isEmpty();
    PlanArtifact p = ArtifactCodec.readPlan(dir.resolve("plan.json"));
    assertThat(p.cost()).isNotNull();
    assertThat(p.cost().pricePerHourUsd()).isEqualTo(1.408);
    assertThat(p.cost().peak().usdPerHour()).isCloseTo(394.24, within(1e-9));
    assertThat(p.cost().trough().usdPerMillionRequests()).isCloseTo(39.111, within(1e-3));
    assertThat(p.cost().peak().usdPerAudioHour()).isNull();
  }

  @Test
  void plan_pricePerHourWithAudioPerRequestRecorded_addsDollarsPerAudioHour() throws IOException {
    tools.jackson.databind.node.ObjectNode tree =
        (tools.jackson.databind.node.ObjectNode)
            ArtifactCodec.mapper().readTree(Path.of(QMAX).toFile());
    for (tools.jackson.databind.JsonNode step : tree.get("steps")) {
      ((tools.jackson.databind.node.ObjectNode) step)
          .putObject("breakdown")
          .put("audio_requests", 50)
          .put("audio_mean_s", 2.0);
    }
    Path qmax = dir.resolve("qmax-with-audio.json");
    Files.writeString(qmax, ArtifactCodec.mapper().writeValueAsString(tree));
    String out = dir.resolve("plan.json").toString();

    CliRun run =
        plan(
            "--qmax",
            qmax.toString(),
            "--ttotal",
            TTOTAL,
            "--peak-rps",
            "5000",
            "--trough-rps",
            "10",
            "--price-per-hour",
            "1.408",
            "--output",
            out);

    assertThat(run.exitCode()).as(run.err()).isZero();
    // trough: $1.408/hour over 10 req/s x 2 s = 20 s of audio per second = 20 audio hours an hour
    // peak: $394.24/hour over 5000 req/s x 2 s = 10000 audio hours an hour
    assertThat(run.out())
        .contains("; $0.0704 per audio hour (2.00 s of audio per request)")
        .contains("; $0.0394 per audio hour (2.00 s of audio per request)")
        .doesNotContain("records no audio duration");
    PlanArtifact p = ArtifactCodec.readPlan(dir.resolve("plan.json"));
    assertThat(p.cost().audioSecondsPerRequest()).isEqualTo(2.0);
    assertThat(p.cost().trough().usdPerAudioHour()).isCloseTo(0.0704, within(1e-9));
    assertThat(p.cost().peak().usdPerAudioHour()).isCloseTo(0.039424, within(1e-9));
  }

  @Test
  void plan_qmaxWithRungChecks_printsTheQmaxRangeUnderQmax() {
    Path runs = Path.of("..", "testdata", "ttotal-runs");
    CliRun run =
        plan(
            "--qmax",
            runs.resolve("qmax-tt2.json").toString(),
            "--ttotal",
            runs.resolve("ttotal-runs3.json").toString(),
            "--peak-rps",
            "20",
            "--output",
            dir.resolve("plan-tt2.json").toString());

    assertThat(run.exitCode()).as(run.err()).isIn(0, 1);
    // that ladder's rung checks leave no rung surely passing or failing: low 0, no high end
    assertThat(run.out())
        .containsPattern(
            "Q_max +8 concurrent.*\n  Q_max range +0-\\? from each rung's 95% p95 interval"
                + " \\(no rung surely breaches the SLO: no upper end\\)");
  }

  @Test
  void plan_qmaxWithoutRungChecks_printsNoRange() {
    assertThat(kokoro().out()).doesNotContain("Q_max range");
  }

  @Test
  void plan_noPrice_recordsAndPrintsNoCost() throws IOException {
    CliRun run = kokoro();

    assertThat(run.out()).doesNotContain("cost\n").doesNotContain("$");
    assertThat(ArtifactCodec.readPlan(dir.resolve("plan.json")).cost()).isNull();
  }

  @Test
  void plan_zeroPrice_isAUsageError() {
    CliRun run = kokoro("--price-per-hour", "0");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--price-per-hour (0.0) must be a positive number");
  }

  @Test
  void plan_json_printsTheArtifact() {
    CliRun run = kokoro("--json");

    assertThat(run.exitCode()).isZero();
    assertThat(ArtifactCodec.validate(ArtifactKind.PLAN, run.out())).isEmpty();
    assertThat(run.out()).contains("\"kind\" : \"plan\"").contains("\"verdict\" : \"warn (2)\"");
  }

  @Test
  void plan_sameInputs_giveTheSameNumbers() throws IOException {
    kokoro();
    PlanArtifact first = ArtifactCodec.readPlan(dir.resolve("plan.json"));
    kokoro();
    PlanArtifact second = ArtifactCodec.readPlan(dir.resolve("plan.json"));

    assertThat(second.shedProbability()).isEqualTo(first.shedProbability());
    assertThat(second.recommendedCScaleMax()).isEqualTo(first.recommendedCScaleMax());
    assertThat(second.findings()).isEqualTo(first.findings());
  }

  @Test
  void plan_assumedTotal_warnsThatTIsNotMeasured() {
    CliRun run =
        plan(
            "--qmax",
            QMAX,
            "--assume-t-total",
            "320s",
            "--peak-streams",
            "100",
            "--output",
            dir.resolve("p.json").toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("ASSUMED").contains("WARN       provision_stage");
  }

  // usage errors: exit 2

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "no peak|--ttotal TTOTAL|give the peak load: --peak-rps N or --peak-streams N",
        "no T|--peak-rps 10|give --ttotal FILE (measured T) or --assume-t-total DURATION",
        "trough above peak|--ttotal TTOTAL --peak-rps 10 --trough-rps 20|trough (20 req/s) is above"
            + " peak (10 req/s)",
        "mixed units|--ttotal TTOTAL --peak-rps 10 --trough-streams 2|same unit",
        "surge 1.5|--ttotal TTOTAL --peak-rps 10 --surge-ratio 1.5|--surge-ratio (1.5) must be in"
            + " [1, 1.5)",
        "surge 0.9|--ttotal TTOTAL --peak-rps 10 --surge-ratio 0.9|--surge-ratio (0.9) must be in"
            + " [1, 1.5)",
        "floor 0|--ttotal TTOTAL --peak-rps 10 --min-floor 0|--min-floor (0) must be at least 1",
        "shed 1|--ttotal TTOTAL --peak-rps 10 --shed-target 1|--shed-target (1.0) must be between",
        "both T|--ttotal TTOTAL --assume-t-total 10s --peak-rps 10|mutually exclusive",
        "bad duration|--assume-t-total soon --peak-rps 10|'soon' is not a duration",
        "negative rps|--ttotal TTOTAL --peak-rps -5|--peak-rps (-5.0) must be a non-negative",
      })
  void plan_usageError_exitsTwoWithTheRule(String name, String args, String message) {
    String[] split = ("--qmax " + QMAX + " " + args.replace("TTOTAL", TTOTAL)).split(" ");

    CliRun run = plan(split);

    assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
    assertThat(run.err()).contains(message).contains("Try 'tts-bench plan --help'");
    assertThat(dir.resolve("plan.json")).doesNotExist();
  }

  // refusals: exit 1

  @Test
  void plan_mismatchedFingerprints_refusesNamingBothSlugs() throws IOException {
    Path other = dir.resolve("ttotal-other.json");
    Files.writeString(
        other,
        Files.readString(Path.of(TTOTAL))
            .replace(
                "8b1b96bc4dc0b30ddd84d8fe37af7c490937333c44a9f8f7d77b918c3d7eaced", "deadbeef00"));

    CliRun refused =
        plan(
            "--qmax",
            QMAX,
            "--ttotal",
            other.toString(),
            "--peak-rps",
            "10",
            "--output",
            dir.resolve("p.json").toString());
    CliRun allowed =
        plan(
            "--qmax",
            QMAX,
            "--ttotal",
            other.toString(),
            "--peak-rps",
            "10",
            "--allow-config-mismatch",
            "--output",
            dir.resolve("p.json").toString());

    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.err())
        .contains("g5xlarge-8b1b96bc")
        .contains("g5xlarge-deadbeef")
        .contains("--allow-config-mismatch");
    assertThat(allowed.exitCode()).isZero();
    assertThat(allowed.err()).contains("warning:").contains("g5xlarge-deadbeef");
  }

  @Test
  void plan_sloDifferingFromTheLadder_isRefused() {
    CliRun run = kokoro("--slo", "2500ms");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("--slo (2500 ms) differs").contains("(3000 ms)");
  }

  @Test
  void plan_unreadableArtifact_namesTheFileAndTheWriter() {
    CliRun run = plan("--qmax", TTOTAL, "--ttotal", TTOTAL, "--peak-rps", "10");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains(TTOTAL)
        .contains("not a \"qmax\" one")
        .contains("tts-bench qmax");
  }

  @Test
  void plan_infeasible_printsThePlanAndExitsOne() throws IOException {
    Path slow = dir.resolve("slow.json");
    Files.writeString(
        slow,
        """
        {"schema_version": 1, "kind": "qmax", "model": "slow", "transport": "http-stream",
         "slo_ms": 100, "frozen": true, "unbounded_queue": true,
         "steps": [{"concurrency": 1, "ttfab_p95_ms": 90, "latency_mean_ms": 100,
                    "latency_p95_ms": 150, "achieved_rps": 10, "concurrency_mean": 1,
                    "server_concurrency_peak": 1, "server_concurrency_mean": 1},
                   {"concurrency": 2, "ttfab_p95_ms": 190}]}
        """);

    CliRun run =
        plan(
            "--qmax",
            slow.toString(),
            "--assume-t-total",
            "60s",
            "--peak-rps",
            "5",
            "--output",
            dir.resolve("p.json").toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).contains("verdict: INFEASIBLE").contains("INFEASIBLE slo_budget");
    assertThat(dir.resolve("p.json")).exists();
  }

  @Test
  void plan_help_listsEveryOption() {
    CliRun run = plan("--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("--qmax")
        .contains("--ttotal")
        .contains("--assume-t-total")
        .contains("--peak-rps")
        .contains("--peak-streams")
        .contains("--trough-rps")
        .contains("--surge-ratio")
        .contains("--min-floor")
        .contains("--shed-target")
        .contains("--ceiling")
        .contains("--allow-config-mismatch")
        .contains("--output")
        .contains("--json");
  }
}
