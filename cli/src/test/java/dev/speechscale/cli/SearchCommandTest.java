package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.platform.NanoClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tts-bench search} end to end on a 15-minute step (seconds, not minutes). */
class SearchCommandTest {
  private static final NanoClock CLOCK =
      NanoClock.of(
          Clock.fixed(Instant.parse("2026-12-01T12:00:00Z"), ZoneOffset.UTC), NanoClock.SYSTEM);

  @TempDir Path dir;
  private Path plan;

  @BeforeEach
  void plan() {
    plan = dir.resolve("plan-kokoro-82m.json");
    CliRun run =
        CliRun.of(
            new TtsBench(),
            "plan",
            "--qmax",
            PlanCommandTest.QMAX,
            "--ttotal",
            PlanCommandTest.TTOTAL,
            "--peak-rps",
            "5000",
            "--trough-rps",
            "10",
            "--output",
            plan.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
  }

  private CliRun search(String output, String threads, String... extra) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "--qmax",
                PlanCommandTest.QMAX,
                "--ttotal",
                PlanCommandTest.TTOTAL,
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
                "--held-out-shift",
                "5m",
                "--threads",
                threads,
                "--output",
                dir.resolve(output).toString()));
    args.addAll(List.of(extra));
    return CliRun.of(new SearchCommand(CLOCK), args.toArray(String[]::new));
  }

  @Test
  @SuppressWarnings("unchecked")
  void writesADeployablePlanWithTheFoundPolicyAndTheSearch_andPrintsTheFrontier() throws Exception {
    CliRun run = search("searched.json", "2");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("frontier (fitted day, screened; what can be deployed)")
        .contains("held-out day (full simulation)")
        .contains("  cpu           no* ")
        .contains("screening error against the full simulation");

    Path file = dir.resolve("searched.json");
    PlanArtifact p = ArtifactCodec.readPlan(file); // deploys as any plan: it reads as one
    Map<String, Object> json = ArtifactCodec.mapper().readValue(Files.readString(file), Map.class);
    Map<String, Object> s = (Map<String, Object>) json.get("search");
    assertThat(s.get("goal")).isEqualTo(Map.of("min_slo_attainment", 0.999, "max_shed", 0.001));
    assertThat((String) s.get("trace_sha256")).hasSize(64);
    assertThat(s.get("seed")).isEqualTo(1);
    assertThat(s.get("held_out"))
        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
        .containsEntry("seed", 2)
        .containsEntry("shift_s", 300);
    assertThat(s.get("screen_scale")).isEqualTo(1); // 200 req/s needs 12 instances: no scaling down
    List<Map<String, Object>> tried = (List<Map<String, Object>>) s.get("candidates");
    String rec = (String) s.get("recommended");
    Map<String, Object> chosen =
        tried.stream().filter(t -> t.get("name").equals(rec)).findFirst().orElseThrow();
    assertThat(p.scalingTargetValue())
        .isEqualTo(((Number) chosen.get("scaling_target_value")).doubleValue());
    assertThat(p.scaleInThreshold())
        .isEqualTo(((Number) chosen.get("scale_in_threshold")).doubleValue());
    assertThat(p.scaleInCooldownS()).isEqualTo(chosen.get("scale_in_cooldown_s"));
    assertThat(p.minInstances()).isEqualTo(chosen.get("min_instances"));
    assertThat(p.maxInstances()).isEqualTo(chosen.get("max_instances"));
    assertThat(p.scaleInAlarm()).isEqualTo(chosen.get("scale_in_alarm"));
    assertThat(p.endpointConfig().scaleInCooldownS()).isEqualTo(p.scaleInCooldownS());
    assertThat(p.configBlock())
        .contains("scale_in_cooldown_s: " + p.scaleInCooldownS())
        .contains("# tts-bench search: " + rec);
    List<Map<String, Object>> held = (List<Map<String, Object>>) s.get("held_out_results");
    assertThat(held)
        .extracting(h -> h.get("name"))
        .containsExactly(rec, "plan", "naive", "invocations", "cpu");
    assertThat(held.getLast().get("deployable")).isEqualTo(false);
    // with a screen at full scale, the screening is the full simulation: zero error
    assertThat(run.out())
        .containsPattern(
            java.util.regex.Pattern.quote(rec + " (held out)")
                + " +inst-h +\\+0\\.0% +SLO +\\+0\\.000 pt");

    // seeded: one thread or two, the same table and the same search, byte for byte
    CliRun again = search("again.json", "1");
    assertThat(again.out()).isEqualTo(run.out());
    Map<String, Object> second =
        ArtifactCodec.mapper().readValue(Files.readString(dir.resolve("again.json")), Map.class);
    assertThat(second.get("search")).isEqualTo(s);
  }

  @Test
  @SuppressWarnings("unchecked")
  void familiesPlanned_triesOnlyThePlansFamily_allTriesInvocationsToo() throws Exception {
    CliRun all = search("all.json", "2");
    CliRun planned = search("planned.json", "2", "--families", "planned");
    assertThat(planned.exitCode()).as(planned.err()).isZero();

    List<Map<String, Object>> allTried = candidates(dir.resolve("all.json"));
    List<Map<String, Object>> plannedTried = candidates(dir.resolve("planned.json"));
    assertThat(allTried).anyMatch(c -> c.containsKey("scaling_metric"));
    assertThat(plannedTried).isNotEmpty().noneMatch(c -> c.containsKey("scaling_metric"));
    assertThat(plannedTried).noneMatch(c -> ((String) c.get("varied")).startsWith("invocations"));
    // the rivals are the same: invocations is still simulated, for comparison
    assertThat(planned.out()).contains("  invocations ");

    CliRun bad = search("x.json", "1", "--families", "cpu");
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).contains("--families (cpu) must be 'all'");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> candidates(Path file) throws Exception {
    Map<String, Object> json = ArtifactCodec.mapper().readValue(Files.readString(file), Map.class);
    return (List<Map<String, Object>>) ((Map<String, Object>) json.get("search")).get("candidates");
  }

  @Test
  void refusesABadGoalNamingTheFlag() {
    CliRun run = search("x.json", "1", "--goal-slo", "120");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--goal-slo (120.0 %) must be above 0 % and at most 100 %");
    CliRun scale = search("x.json", "1", "--screen-scale", "zero");
    assertThat(scale.exitCode()).isEqualTo(2);
    assertThat(scale.err()).contains("--screen-scale (zero) must be a whole number >= 1 or 'auto'");
  }
}
