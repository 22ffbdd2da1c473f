package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.platform.NanoClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tts-bench search --also-type}: two Flite ladders measured on this machine, one on {@code
 * local.500mcpu} (half a core) and one on {@code local.1cpu}, priced in proportion to their CPU
 * (measurements/policy-search.md, "Picking the instance type"); the search picks the type whose
 * recommendation meets the goal at the lowest held-out cost, by the numbers it reports.
 */
class SearchTypesCommandTest {
  private static final NanoClock CLOCK =
      NanoClock.of(
          Clock.fixed(Instant.parse("2026-12-07T13:00:00Z"), ZoneOffset.UTC), NanoClock.SYSTEM);
  private static final Path DIR = Path.of("src/test/resources/search-types");
  static final String HALF = DIR.resolve("qmax-flite-local500mcpu.json").toString();
  static final String ONE = DIR.resolve("qmax-flite-local1cpu.json").toString();
  static final String TTOTAL = DIR.resolve("ttotal-flite-local500mcpu.json").toString();

  @TempDir Path dir;
  private Path plan;

  @BeforeEach
  void plan() {
    plan = plan(HALF, "plan-half.json");
  }

  private Path plan(String qmax, String name, String... extra) {
    Path out = dir.resolve(name);
    List<String> args =
        new ArrayList<>(
            List.of(
                "plan",
                "--qmax",
                qmax,
                "--ttotal",
                TTOTAL,
                "--peak-rps",
                "120",
                "--trough-rps",
                "6",
                "--output",
                out.toString()));
    args.addAll(List.of(extra));
    CliRun run = CliRun.of(new TtsBench(), args.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(out).exists();
    return out;
  }

  private CliRun search(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--qmax",
                HALF,
                "--ttotal",
                TTOTAL,
                "--plan",
                plan.toString(),
                "--pattern",
                "diurnal",
                "--peak-rps",
                "120",
                "--trough-rps",
                "6",
                "--duration",
                "20m",
                "--held-out-shift",
                "5m",
                "--threads",
                "2",
                "--output",
                dir.resolve("searched.json").toString()));
    args.addAll(List.of(extra));
    return CliRun.of(new SearchCommand(CLOCK), args.toArray(String[]::new));
  }

  @Test
  @SuppressWarnings("unchecked")
  void picksTheTypeWhoseRecommendationMeetsTheGoalAtTheLowestHeldOutCost() throws Exception {
    CliRun run = search("--price-per-hour", "0.05", "--also-type", ONE + "=0.10");
    assertThat(run.exitCode()).as(run.err()).isZero();

    Map<String, Object> written =
        ArtifactCodec.mapper().readValue(Files.readString(dir.resolve("searched.json")), Map.class);
    Map<String, Object> search = (Map<String, Object>) written.get("search");
    List<Map<String, Object>> types = (List<Map<String, Object>>) search.get("types");
    assertThat(types)
        .extracting(t -> t.get("instance_type"))
        .containsExactly("local.500mcpu", "local.1cpu");
    // the two ladders differ: the search ran on each type's own Q_max and plan
    assertThat(types.get(0).get("q_max")).isNotEqualTo(types.get(1).get("q_max"));
    for (Map<String, Object> t : types) {
      assertThat(num(t, "held_out_cost_usd"))
          .isCloseTo(
              num(t, "held_out_instance_hours") * num(t, "price_per_hour_usd"), within(1e-9));
    }
    // the pick, by the numbers the artifact reports: the cheapest that meets the goal
    List<Map<String, Object>> meeting =
        types.stream().filter(t -> Boolean.TRUE.equals(t.get("meets_goal_held_out"))).toList();
    assertThat(meeting).isNotEmpty();
    Map<String, Object> cheapest =
        meeting.stream()
            .min(java.util.Comparator.comparingDouble(t -> num(t, "held_out_cost_usd")))
            .orElseThrow();
    List<Map<String, Object>> chosen =
        types.stream().filter(t -> Boolean.TRUE.equals(t.get("chosen"))).toList();
    assertThat(chosen).containsExactly(cheapest);
    String type = (String) cheapest.get("instance_type");
    // not a tie: one core served 8 streams within the SLO to half a core's 3, at twice the price,
    // so on a 20-minute day of 6 to 120 req/s the 1cpu fleet costs less
    // (measurements/policy-search.md)
    assertThat(num(types.get(0), "held_out_cost_usd"))
        .isNotCloseTo(num(types.get(1), "held_out_cost_usd"), within(1e-3));
    assertThat(type).isEqualTo("local.1cpu");

    // the plan written is the chosen type's: its fingerprint, its Q_max, its recommendation
    PlanArtifact p = ArtifactCodec.readPlan(dir.resolve("searched.json"));
    assertThat(p.deployedConfig().instanceType()).isEqualTo(type);
    assertThat(written.get("q_max")).isEqualTo(cheapest.get("q_max"));
    assertThat(search.get("recommended")).isEqualTo(cheapest.get("recommended"));

    // the 1cpu plan is tts-bench plan's own on that ladder with the same inputs (capacity
    // module), the half-core ttotal borrowed
    PlanArtifact own =
        ArtifactCodec.readPlan(plan(ONE, "plan-one.json", "--allow-config-mismatch"));
    assertThat(num(types.get(1), "c_scale_max")).isEqualTo(own.cScaleMax());
    assertThat(types.get(1).get("ttotal")).isEqualTo("the given --ttotal");

    // the summary prints a line per type and the pick with its cost
    assertThat(run.out())
        .contains("instance types (each searched with the same goal, trace and seeds")
        .contains("chosen type " + type + "'s search:")
        .contains(
            String.format(
                Locale.ROOT,
                "chosen type: %s (the cheapest whose recommendation meets the goal, $%.4f",
                type,
                num(cheapest, "held_out_cost_usd")));
    for (Map<String, Object> t : types) {
      assertThat(run.out())
          .containsPattern(
              "(?m)^  "
                  + java.util.regex.Pattern.quote((String) t.get("instance_type"))
                  + " +"
                  + t.get("q_max")
                  + " ");
    }
  }

  @Test
  void refusesAnotherTypeWithoutThePriceOfTheFirst_orMalformed() {
    CliRun noPrice = search("--also-type", ONE + "=0.10");
    assertThat(noPrice.exitCode()).isEqualTo(2);
    assertThat(noPrice.err()).contains("--also-type needs --price-per-hour USD");

    CliRun malformed = search("--price-per-hour", "0.05", "--also-type", ONE);
    assertThat(malformed.exitCode()).isEqualTo(2);
    assertThat(malformed.err())
        .contains("--also-type (" + ONE + ") must be QMAX_FILE=USD[,TTOTAL_FILE]");

    CliRun negative = search("--price-per-hour", "0.05", "--also-type", ONE + "=-1");
    assertThat(negative.exitCode()).isEqualTo(2);
    assertThat(negative.err()).contains("must be QMAX_FILE=USD[,TTOTAL_FILE] with a positive");
  }

  @Test
  void refusesATypesOwnTtotalMeasuredOnAnotherDeployment() {
    // the half-core ttotal given as the 1cpu type's own: its fingerprint differs from the ladder's,
    // and only a borrowed (given --ttotal) start-up delay is allowed to differ
    CliRun run = search("--price-per-hour", "0.05", "--also-type", ONE + "=0.10," + TTOTAL);
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("qmax " + ONE).contains("ttotal " + TTOTAL);
  }

  private static double num(Map<String, Object> m, String key) {
    return ((Number) m.get(key)).doubleValue();
  }
}
