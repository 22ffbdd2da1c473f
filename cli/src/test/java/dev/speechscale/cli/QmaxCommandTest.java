package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code qmax}'s per-platform defaults and {@code --dry-run}. Every run here is a dry run: no
 * endpoint, no config file (the SLO is given), no AWS account.
 */
class QmaxCommandTest {

  private static CliRun qmax(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "qmax";
    System.arraycopy(args, 0, all, 1, args.length);
    return CliRun.of(new TtsBench(), all);
  }

  private static List<String> rows(String out) {
    return out.lines().filter(l -> l.matches("\\s+\\d+\\s+\\d+\\s+(coarse|bisect)\\s.*")).toList();
  }

  @Test
  void dryRun_aws_walksThePublishedLadder() {
    CliRun run = qmax("--model", "kokoro-82m", "--platform", "aws", "--slo", "3000ms", "--dry-run");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("platform defaults: the published SageMaker ladder")
        .contains("hold 240 s per rung, the trailing 60 s measured, 30 s settle between rungs")
        .contains("warm-up (not measured): N=4 for 20 s");
    List<String> coarse = rows(run.out()).stream().filter(l -> l.contains("coarse")).toList();
    assertThat(coarse)
        .extracting(l -> Integer.parseInt(l.trim().split("\\s+")[3]))
        .containsExactly(1, 5, 10, 20, 30, 40, 50, 60);
    assertThat(coarse).allSatisfy(l -> assertThat(l.trim().split("\\s+")[4]).isEqualTo("240"));
    assertThat(coarse).allSatisfy(l -> assertThat(l.trim().split("\\s+")[5]).isEqualTo("60"));
    assertThat(coarse.getFirst().trim().split("\\s+")[6]).isEqualTo("0");
    assertThat(coarse.getLast().trim().split("\\s+")[6]).isEqualTo("30");
  }

  @Test
  void dryRun_aws_totalsAboutTheArticlesThirtySixMinutes() {
    CliRun run = qmax("--model", "kokoro-82m", "--platform", "aws", "--slo", "3000ms", "--dry-run");

    // coarse: 240.1 + (270.5 + 271 + 272 + 273 + 274 + 275 + 276) s, warm-up 20 s + 0.4 s drain
    // = 2172.0 s; allowance: the widest gap 10..20, 4 rungs x (30 + 240 + 6 s top-rung drain)
    // = 1104 s; the predicted ladder (bisecting 20..30 at S = 100 ms) stays inside it
    assertThat(run.out())
        .contains(
            "bisection allowance: up to 4 rung(s) per run (the widest gap, 10..20), at most"
                + " +18m24s")
        .contains("total: 54m22s wall clock as predicted")
        .contains(
            "coarse ladder and warm-up 36m12s, at most 54m36s with the full bisection"
                + " allowance");
  }

  @Test
  void dryRun_local_keepsTodaysDefaults() {
    CliRun run = qmax("--model", "flite", "--platform", "local", "--slo", "500ms", "--dry-run");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("platform defaults: local defaults")
        .contains("hold 30 s per rung, the trailing 20 s measured, 0 s settle between rungs");
    assertThat(rows(run.out()).stream().filter(l -> l.contains("coarse")))
        .extracting(l -> Integer.parseInt(l.trim().split("\\s+")[3]))
        .containsExactly(1, 2, 4, 8, 16, 32);
  }

  @Test
  void dryRun_givenLadder_overridesThePlatformDefaults() {
    CliRun run =
        qmax(
            "--model",
            "kokoro-82m",
            "--platform",
            "aws",
            "--slo",
            "3000ms",
            "--dry-run",
            "--rungs",
            "1,2",
            "--hold",
            "40s",
            "--window",
            "10s",
            "--settle",
            "0s",
            "--warmup",
            "0s",
            "--no-refine");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("hold 40 s per rung, the trailing 10 s measured, 0 s settle between rungs")
        .contains("warm-up: none")
        .contains("bisection allowance: none (--no-refine)");
    assertThat(rows(run.out())).hasSize(2);
  }

  @Test
  void dryRun_publishedSpelling_isAccepted() {
    CliRun run =
        qmax(
            "--model",
            "kokoro-82m",
            "--platform",
            "aws",
            "--dry-run",
            "--concurrency",
            "1,5,10",
            "--slo-ms",
            "3000",
            "--hold",
            "240",
            "--measure-window",
            "60.0",
            "--settle-between-steps",
            "30",
            "--dry-run-s",
            "0.25");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("3 coarse rung(s) x 1 run(s) at SLO 3000 ms")
        .contains("hold 240 s per rung, the trailing 60 s measured, 30 s settle between rungs")
        .contains("S=250.0 ms");
  }

  @Test
  void dryRun_windowLongerThanHold_isRefusedNamingBoth() {
    CliRun run =
        qmax("--model", "m", "--platform", "aws", "--slo", "3s", "--dry-run", "--hold", "30s");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("hold (PT30S) must be at least window (PT1M)");
  }
}
