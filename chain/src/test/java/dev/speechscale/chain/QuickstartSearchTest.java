package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.PlanArtifact;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quickstart's search step on a recorded run's artifacts. */
class QuickstartSearchTest {
  static final Path RUN = QuickstartReportGoldenTest.RUN;
  static final Path QMAX = RUN.resolve("qmax-quickstart-http-stream-local500mcpu-038ffb50.json");
  static final Path TTOTAL =
      RUN.resolve("ttotal-quickstart-force-desired-local500mcpu-038ffb50.json");
  static final Path PLAN = RUN.resolve("plan-quickstart.json");

  @TempDir Path dir;

  static QuickstartSearch.Found search(Path dir) {
    return QuickstartSearch.run(
        ArtifactCodec.readQmax(QMAX),
        QMAX,
        ArtifactCodec.readTtotal(TTOTAL),
        TTOTAL,
        ArtifactCodec.readPlan(PLAN),
        PLAN,
        dir,
        Instant.parse("2026-12-01T22:32:00Z"),
        2,
        dev.speechscale.platform.NanoClock.SYSTEM,
        line -> {});
  }

  @Test
  void run_recordedQuickstart_writesADeployablePlanWithTheChosenPolicyAndItsRecord()
      throws IOException {
    QuickstartSearch.Found found = search(dir);

    Path out = dir.resolve("plan-search-quickstart.json");
    assertThat(found.planFile()).isEqualTo(out);
    assertThat(ArtifactCodec.validate(ArtifactKind.PLAN, Files.readString(out))).isEmpty();
    PlanArtifact chosen = found.plan();
    var c = found.result().recommendation();
    assertThat(chosen.scalingTargetValue()).isEqualTo(c.targetValue());
    assertThat(chosen.scaleInThreshold()).isEqualTo(c.scaleInThreshold());
    assertThat(chosen.scaleInCooldownS()).isEqualTo(c.scaleInCooldownS());
    assertThat(chosen.scaleOutCooldownS()).isEqualTo(c.scaleOutCooldownS());
    assertThat(chosen.minInstances()).isEqualTo(c.min());
    assertThat(chosen.maxInstances()).isEqualTo(c.max());
    assertThat(chosen.scheduledFloors()).hasSize(c.floors().size());
    assertThat(Files.readString(dir.resolve("search-quickstart.txt")))
        .startsWith(
            "search: goal >= 99.9 % within the SLO, <= 0.1 % shed; fitted on trace-search.csv")
        .contains("recommended: " + found.result().recommended());
    // the held-out day: the chosen policy first, then the plan and the rivals
    assertThat(found.result().heldOut().getFirst().name()).isEqualTo(found.result().recommended());
    assertThat(found.view().heldOut())
        .extracting(r -> r.name())
        .contains("plan", "naive", "invocations", "cpu");
    assertThat(found.view().frontier()).isNotEmpty();
    assertThat(found.view().candidates()).hasSize(found.result().tried().size());
    assertThat(found.commandLine())
        .startsWith("bin/tts-bench search --qmax " + QMAX + " --ttotal " + TTOTAL)
        .contains(
            " --trace "
                + dir.resolve("trace-search.csv")
                + " --held-out-shift 300s --metric-delay 0s --families planned --output "
                + out);
    assertThat(found.line()).startsWith("search chose " + found.result().recommended());
  }

  @Test
  void run_twice_writesTheSamePlanBytes() throws IOException {
    Path a = Files.createDirectories(dir.resolve("a"));
    Path b = Files.createDirectories(dir.resolve("b"));
    search(a);
    search(b);

    // the same bytes but for the directory each was written into (the rerun line names it)
    assertThat(
            Files.readString(b.resolve("plan-search-quickstart.json")).replace(b.toString(), "D"))
        .isEqualTo(
            Files.readString(a.resolve("plan-search-quickstart.json")).replace(a.toString(), "D"));
    assertThat(Files.readString(b.resolve("trace-search.csv")))
        .isEqualTo(Files.readString(a.resolve("trace-search.csv")));
  }
}
