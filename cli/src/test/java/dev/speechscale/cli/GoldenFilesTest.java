package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.platform.NanoClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every artifact kind and the simulate report, byte for byte, as today's code writes them for fixed
 * inputs; the quickstart report has its own golden file in chain ({@code
 * QuickstartReportGoldenTest}). A refactor keeps these files identical; a change may alter them
 * only by additive fields that its commit names, and rewrites them on purpose:
 *
 * <pre>
 * mvn -o -B -pl cli -am verify -Dtest='GoldenFilesTest' -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dgolden.update=true
 * </pre>
 *
 * <p>then reads {@code git diff cli/src/test/resources/golden} before committing. Without the
 * property nothing is ever written into the source tree.
 *
 * <p>What is fixed and how:
 *
 * <ul>
 *   <li>{@code plan} and {@code simulate} run their commands as a user would, on the published
 *       kokoro-82m example ({@code examples/kokoro-82m}), stamped by {@link SourceDateEpoch} with
 *       {@code SOURCE_DATE_EPOCH=1796400000}; simulate with its default seed (1). Paths are typed
 *       relative to the module directory (Surefire's working directory), so the command lines
 *       recorded in provenance are the same on every machine. {@code PlanCommand} runs as its own
 *       command line (the only way to give it the fixed clock), so its recorded command reads
 *       {@code plan --qmax …} where a user's reads {@code tts-bench plan --qmax …}; {@code
 *       simulate} spells its prefix itself. A commit that makes both read alike names that change.
 *   <li>{@code qmax}, {@code ttotal}, {@code validate}, {@code drift} and {@code replay} are
 *       measured against live endpoints, so their fixed input is the recorded quickstart run
 *       ({@code testdata/quickstart-2026-12-01-2232}, the run the quickstart report's golden file
 *       renders): each is read into its record and written by {@link ArtifactCodec#toJson}, the
 *       path every step's artifact takes to disk. A record regrouped into sections must still write
 *       these bytes.
 *   <li><b>Normalisation</b>, the only one: {@link Provenance#capture} stamps the machine's host
 *       name, JVM and OS. In a freshly written artifact the three values this JVM would capture
 *       ({@link #MACHINE}) are replaced by {@code <host>}, {@code <jvm>} and {@code <os>} before
 *       the comparison. Recorded artifacts keep the values recorded with them.
 * </ul>
 */
class GoldenFilesTest {
  static final String UPDATE = "golden.update";
  static final Path GOLDEN = Path.of("src", "test", "resources", "golden");
  static final Path OUT = Path.of("target", "golden-out");
  static final Path EXAMPLE = Path.of("..", "examples", "kokoro-82m");
  static final Path RUN = Path.of("..", "testdata", "quickstart-2026-12-01-2232");
  static final String QMAX =
      EXAMPLE.resolve("qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json").toString();
  static final String TTOTAL =
      EXAMPLE.resolve("ttotal-kokoro-82m-force-desired-g5xlarge-8b1b96bc.json").toString();

  /** What this machine's provenance says, as {@link Provenance#capture} records it. */
  static final Provenance MACHINE = Provenance.capture("", Map.of());

  static NanoClock fixedClock() {
    return SourceDateEpoch.clock(Map.of(SourceDateEpoch.VARIABLE, "1796400000"), Clock.systemUTC());
  }

  @Test
  void plan_publishedExample_isTheGoldenArtifact() throws IOException {
    CliRun run = CliRun.of(new PlanCommand(fixedClock()), planArgs(OUT.resolve("plan.json")));
    assertThat(run.exitCode()).as(run.err()).isZero();

    assertGolden("plan.json", normalised(Files.readString(OUT.resolve("plan.json"))));
  }

  @Test
  void simulate_publishedExample_isTheGoldenArtifactAndReport() throws IOException {
    Path plan = OUT.resolve("simulate-input-plan.json");
    assertThat(CliRun.of(new PlanCommand(fixedClock()), planArgs(plan)).exitCode()).isZero();
    CliRun run =
        CliRun.of(
            new SimulateCommand(fixedClock()),
            "--qmax",
            QMAX,
            "--ttotal",
            TTOTAL,
            "--plan",
            plan.toString(),
            "--pattern",
            "step",
            "--peak-rps",
            "200",
            "--trough-rps",
            "10",
            "--duration",
            "15m",
            "--policies",
            "plan,naive,invocations,cpu,fixed:12",
            "--price-per-hour",
            "1.408",
            // the physics as pinned before the default followed the platform (aws: 60 s);
            // SimulateCommandTest pins the defaults
            "--metric-delay",
            "0s",
            "--output",
            OUT.resolve("simulate.json").toString(),
            "--report",
            OUT.resolve("simulate.html").toString());
    assertThat(run.exitCode()).as(run.err()).isZero();

    assertGolden("simulate.json", normalised(Files.readString(OUT.resolve("simulate.json"))));
    assertGolden("simulate.html", normalised(Files.readString(OUT.resolve("simulate.html"))));
  }

  @Test
  void qmax_recordedRun_isWrittenAsTheGoldenArtifact() throws IOException {
    assertGolden(
        "qmax.json",
        ArtifactCodec.toJson(
            ArtifactCodec.readQmax(
                RUN.resolve("qmax-quickstart-http-stream-local500mcpu-038ffb50.json"))));
  }

  @Test
  void ttotal_recordedRun_isWrittenAsTheGoldenArtifact() throws IOException {
    assertGolden(
        "ttotal.json",
        ArtifactCodec.toJson(
            ArtifactCodec.readTtotal(
                RUN.resolve("ttotal-quickstart-force-desired-local500mcpu-038ffb50.json"))));
  }

  @Test
  void validate_recordedRun_isWrittenAsTheGoldenArtifact() throws IOException {
    assertGolden(
        "validate.json",
        ArtifactCodec.toJson(ArtifactCodec.readValidate(RUN.resolve("validate-quickstart.json"))));
  }

  @Test
  void drift_recordedRun_isWrittenAsTheGoldenArtifact() throws IOException {
    assertGolden(
        "drift.json",
        ArtifactCodec.toJson(ArtifactCodec.readDrift(RUN.resolve("drift-quickstart.json"))));
  }

  @Test
  void replay_recordedRun_isWrittenAsTheGoldenArtifact() throws IOException {
    assertGolden(
        "replay.json",
        ArtifactCodec.toJson(ArtifactCodec.readReplay(RUN.resolve("replay-quickstart.json"))));
  }

  private static String[] planArgs(Path out) {
    return new String[] {
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
  }

  /** This machine's host, JVM and OS, as JSON strings, replaced by placeholders. */
  static String normalised(String text) {
    return text.replace(quoted(MACHINE.host()), quoted("<host>"))
        .replace(quoted(MACHINE.jvm()), quoted("<jvm>"))
        .replace(quoted(MACHINE.os()), quoted("<os>"));
  }

  private static String quoted(String value) {
    return "\"" + value + "\"";
  }

  /**
   * Compares {@code actual} with the golden file byte for byte; with {@code -Dgolden.update=true}
   * writes it instead and passes.
   */
  static void assertGolden(String name, String actual) throws IOException {
    Path golden = GOLDEN.resolve(name);
    if (Boolean.getBoolean(UPDATE)) {
      Files.createDirectories(GOLDEN);
      Files.writeString(golden, actual, StandardCharsets.UTF_8);
      return;
    }
    assertThat(golden)
        .as(
            "golden file %s is missing; write it with -D%s=true (see GoldenFilesTest's Javadoc)",
            golden.toAbsolutePath(), UPDATE)
        .exists();
    byte[] expected = Files.readAllBytes(golden);
    if (!Arrays.equals(actual.getBytes(StandardCharsets.UTF_8), expected)) {
      fail(
          "%s differs from the golden file %s at %s. If the change is intended (an additive field"
              + " that your commit names), rewrite the golden files with -D%s=true and read the git"
              + " diff; otherwise the writer changed what it writes",
          name,
          golden.toAbsolutePath(),
          firstDifference(new String(expected, StandardCharsets.UTF_8), actual),
          UPDATE);
    }
  }

  /** The first line that differs, with both versions, so a failure is readable without a diff. */
  static String firstDifference(String expected, String actual) {
    List<String> want = expected.lines().toList();
    List<String> got = actual.lines().toList();
    for (int i = 0; i < Math.min(want.size(), got.size()); i++) {
      if (!want.get(i).equals(got.get(i))) {
        return "line " + (i + 1) + ": golden <" + want.get(i) + "> written <" + got.get(i) + ">";
      }
    }
    return "the end: golden has "
        + want.size()
        + " lines, written "
        + got.size()
        + " (or the line ends differ)";
  }
}
