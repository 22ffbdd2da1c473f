package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.capacity.Load;
import dev.speechscale.capacity.PlanVerdict;
import dev.speechscale.capacity.Scenario;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plan step over the published Kokoro-82M artifacts: the plan, and each refusal. */
class PlanRunTest {
  private static final Path DIR = Path.of("..", "examples", "kokoro-82m");
  private static final Path QMAX =
      DIR.resolve("qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json");
  private static final Path TTOTAL =
      DIR.resolve("ttotal-kokoro-82m-force-desired-g5xlarge-8b1b96bc.json");
  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
  private static final Scenario SHAPE =
      new Scenario(
          1, 1.25, new Load.RequestRate(5000), new Load.RequestRate(10), 1, 0.10, 60, 1, 0);

  private static PlanRun.Options options(Path ttotal, Duration assumed, Duration slo) {
    return new PlanRun.Options(QMAX, ttotal, assumed, SHAPE, slo, false, "test", Map.of());
  }

  @Test
  void run_publishedArtifacts_derivesThePublishedThresholdAtTheLaddersSlo() {
    PlanRun.Result r = PlanRun.run(options(TTOTAL, null, null), line -> {}, NOW);
    assertThat(r.plan().qMax()).isEqualTo(50);
    assertThat(r.scenario().sloMs()).isEqualTo(3000);
    assertThat(r.artifact().verdict()).isEqualTo(r.plan().verdict());
    assertThat(r.artifact().createdAt()).isEqualTo(NOW);
    assertThat(r.scaleOut().measured()).isTrue();
  }

  @Test
  void run_assumedTotal_plansAgainstTheAssumption() {
    PlanRun.Result r = PlanRun.run(options(null, Duration.ofSeconds(320), null), line -> {}, NOW);
    assertThat(r.scaleOut().measured()).isFalse();
    assertThat(r.scaleOut().plannedSeconds()).isEqualTo(320.0);
    assertThat(r.plan().verdict().kind()).isNotEqualTo(PlanVerdict.Kind.INFEASIBLE);
  }

  @Test
  void run_sloDifferingFromTheLadder_refusesNamingBothAndTheFix() {
    assertThatThrownBy(
            () -> PlanRun.run(options(TTOTAL, null, Duration.ofMillis(2000)), line -> {}, NOW))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("--slo (2000 ms) differs")
        .hasMessageContaining("(3000 ms)")
        .hasMessageContaining("re-run `tts-bench qmax --slo 2000ms`, or drop --slo");
  }

  @Test
  void run_ttotalOfAnotherModel_refusesNamingBothModels(@TempDir Path tmp) throws IOException {
    Path other = tmp.resolve("ttotal-other.json");
    Files.writeString(
        other,
        Files.readString(TTOTAL, StandardCharsets.UTF_8)
            .replace("\"model\": \"kokoro-82m\"", "\"model\": \"other\""),
        StandardCharsets.UTF_8);
    List<String> warnings = new ArrayList<>();
    assertThatThrownBy(() -> PlanRun.run(options(other, null, null), warnings::add, NOW))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("is for model 'kokoro-82m' but ttotal " + other + " is for 'other'")
        .hasMessageEndingWith("; pair artifacts of one model");
    assertThat(warnings).isEmpty();
  }

  @Test
  void options_bothOrNeitherTotal_isRefused() {
    assertThatThrownBy(() -> options(null, null, null))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("exactly one of a ttotal artifact and an assumed T");
  }
}
