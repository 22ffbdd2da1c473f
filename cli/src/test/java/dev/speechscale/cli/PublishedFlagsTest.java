package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** Every published flag of the table does what the table says. */
class PublishedFlagsTest {
  @org.junit.jupiter.api.io.TempDir Path dir;

  private static CommandLine root(String command) {
    return Cli.commandLine(command.startsWith("tts-bench") ? new TtsBench() : new SpeechInfra());
  }

  private static CommandLine.Model.CommandSpec spec(String command) {
    return root(command).getSubcommands().get(command.split(" ")[1]).getCommandSpec();
  }

  static Stream<PublishedFlags.Flag> same() {
    return PublishedFlags.ALL.stream()
        .filter(
            f -> f.kind() == PublishedFlags.Kind.SAME || f.kind() == PublishedFlags.Kind.DIFFERS);
  }

  static Stream<PublishedFlags.Flag> aliases() {
    return PublishedFlags.ALL.stream().filter(f -> f.kind() == PublishedFlags.Kind.ALIAS);
  }

  static Stream<PublishedFlags.Flag> refused() {
    return PublishedFlags.ALL.stream().filter(f -> f.kind() == PublishedFlags.Kind.REFUSED);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("same")
  void same_flag_isOneOfOurOwnOptions(PublishedFlags.Flag f) {
    assertThat(spec(f.command()).findOption(f.published())).as(f.command()).isNotNull();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("aliases")
  void alias_target_existsAndTheAliasIsHidden(PublishedFlags.Flag f) {
    CommandLine.Model.CommandSpec spec = spec(f.command());
    assertThat(spec.findOption(f.ours())).as(f.command() + " " + f.ours()).isNotNull();
    assertThat(spec.findOption(f.published())).as(f.published()).isNotNull();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void refused_flag_isAUsageErrorNamingWhatToUse(PublishedFlags.Flag f) {
    String[] words = f.command().split(" ");
    List<String> args = new ArrayList<>(List.of(words[1], f.published()));
    if (f.arity() == 1) {
      args.add("x");
    }
    CliRun run =
        CliRun.of(
            words[0].equals("tts-bench") ? new TtsBench() : new SpeechInfra(),
            args.toArray(String[]::new));

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().lines().findFirst().orElseThrow())
        .isEqualTo("error: " + PublishedFlags.refusal(f));
    if (f.ours() != null) {
      assertThat(f.note()).contains(f.ours());
    }
  }

  @Test
  void alias_plan_ttfabSloMs_isTheLaddersSloCheck() {
    Path qmax = Path.of(PlanCommandTest.QMAX);
    CliRun run =
        CliRun.of(
            new TtsBench(),
            "plan",
            "--qmax",
            qmax.toString(),
            "--assume-t-total",
            "320",
            "--peak-rps",
            "10",
            "--output",
            dir.resolve("plan.json").toString(),
            "--ttfab-slo-ms",
            "2000",
            "--max-scaling-per-t-total",
            "1.25",
            "--ceiling-s",
            "60");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("--slo (2000 ms) differs from the SLO the ladder");
  }

  @Test
  void alias_surgeRatio_isCheckedAsOurs() {
    CliRun run =
        CliRun.of(
            new TtsBench(),
            "plan",
            "--qmax",
            PlanCommandTest.QMAX,
            "--ttotal",
            PlanCommandTest.TTOTAL,
            "--peak-rps",
            "10",
            "--output",
            dir.resolve("plan.json").toString(),
            "--max-scaling-per-t-total",
            "1.5");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--surge-ratio (1.5) must be in [1, 1.5)");
  }

  @Test
  void always_trigger_acceptsOnlyForceDesired() {
    CliRun run = CliRun.of(new TtsBench(), "ttotal", "--trigger", "drive-load");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("--trigger (drive-load): force-desired is the only trigger, as published");
  }

  @Test
  void hidden_publishedFlags_stayOutOfHelp() {
    CliRun run = CliRun.of(new TtsBench(), "qmax", "--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).doesNotContain("--samples").doesNotContain("--slo-ms");
  }

  @Test
  void readme_listsEveryPublishedFlag() throws IOException {
    String readme = Files.readString(Path.of("README.md"));

    assertThat(readme).contains(PublishedFlags.markdown());
  }
}
