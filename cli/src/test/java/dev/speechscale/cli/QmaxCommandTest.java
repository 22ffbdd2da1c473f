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
  void qmax_unknownTransport_isAUsageErrorNamingTheValueAndTheChoices() {
    CliRun run = qmax("--model", "kokoro-82m", "--platform", "aws", "--transport", "grpc");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
    assertThat(run.err())
        .startsWith(
            "error: --transport: transport 'grpc' is not one of http-stream, response-stream,"
                + " bidi\n");
  }

  @Test
  void dryRun_aws_walksThePublishedLadder() {
    CliRun run =
        qmax(
            "--model",
            "kokoro-82m",
            "--platform",
            "aws",
            "--slo",
            "3000ms",
            "--dry-run",
            "--stability-windows",
            "1");

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
  void dryRun_awsOneWindow_totalsAboutTheArticlesThirtySixMinutes() {
    // one window per rung and no idle-start rung: the published tool's measurement
    CliRun run =
        qmax(
            "--model",
            "kokoro-82m",
            "--platform",
            "aws",
            "--slo",
            "3000ms",
            "--dry-run",
            "--stability-windows",
            "1",
            "--no-idle-rung");

    // coarse: 240.1 + (270.5 + 271 + 272 + 273 + 274 + 275 + 276) s, warm-up 20 s + 0.4 s drain
    // = 2172.0 s; allowance: the widest gap 10..20, 4 rungs and the drift re-check x (30 + 240 +
    // 6 s top-rung drain) = 1380 s; the predicted ladder (bisecting 20..30 at S = 100 ms, then
    // re-measuring N=20 for 30 + 240 + 2 s) stays inside it
    assertThat(run.out())
        .contains(
            "bisection allowance: up to 4 rung(s) per run (the widest gap, 10..20) and 1 drift"
                + " re-check(s), at most +23m00s")
        .contains("total: 58m54s wall clock as predicted")
        .contains(
            "coarse ladder and warm-up 36m12s, at most 59m12s with the full bisection"
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

  /**
   * The quickstart's ladder (8 s holds, SLO 1 s) at its recorded S of about 47 ms, one window per
   * rung (the drift tests' figures; the stability windows have tests of their own).
   */
  private static CliRun quickstartDryRun(String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("--stability-windows", "1"));
    args.addAll(List.of(more));
    return quickstartLadder(args.toArray(String[]::new));
  }

  /** The quickstart's ladder with the default stability windows unless {@code more} says. */
  private static CliRun quickstartLadder(String... more) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "--model",
                "flite",
                "--platform",
                "local",
                "--slo",
                "1000ms",
                "--dry-run",
                "--hold",
                "8s",
                "--window",
                "5s",
                "--assume-service-time",
                "47ms"));
    args.addAll(List.of(more));
    return qmax(args.toArray(String[]::new));
  }

  @Test
  void dryRun_defaultDriftCheck_remeasuresTheReferenceRungAndCountsItInTheTotal() {
    CliRun run = quickstartDryRun();

    assertThat(run.exitCode()).as(run.err()).isZero();
    // TTFAB 47 ms x N: coarse 16 is the highest that meets 1000 ms, so it is re-measured last
    List<String> rechecks =
        run.out().lines().filter(l -> l.matches("\\s+\\d+\\s+\\d+\\s+recheck\\s.*")).toList();
    assertThat(rechecks)
        .singleElement()
        .satisfies(l -> {
          String[] cells = l.trim().split("\\s+");
          assertThat(cells[1]).isEqualTo("10");
          assertThat(cells[3]).isEqualTo("16");
          assertThat(cells[10]).isEqualTo("8.8"); // 8 s hold + 16 x 47 ms drain
        });
    assertThat(run.out())
        .contains(
            "drift re-check: each run's highest coarse rung that meets the SLO, measured again at"
                + " the end of the run and compared with its first measurement (beyond 10 %"
                + " throughput or 15 % p95 the artifact carries a drift finding); as predicted 1"
                + " re-check(s), +8s")
        // 5 extra rungs (4 bisection + the re-check) x (8 s + the top rung's 32 x 47 ms drain)
        .contains(
            "bisection allowance: up to 4 rung(s) per run (the widest gap, 16..32) and 1 drift"
                + " re-check(s), at most +47s");
  }

  @Test
  void dryRun_driftCheckBetweenBisectionSteps_addsARecheckAfterEachStepButTheLast() {
    CliRun run = quickstartDryRun("--drift-check", "bisection");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().lines().filter(l -> l.matches("\\s+\\d+\\s+\\d+\\s+recheck\\s.*")))
        .hasSize(4);
    assertThat(run.out())
        .contains("at the end of the run and between bisection steps")
        .contains("and 4 drift re-check(s), at most +1m16s");
  }

  @Test
  void dryRun_driftCheckOff_saysNothingWatchesForDrift() {
    CliRun run = quickstartDryRun("--drift-check", "off");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("drift re-check: off (--drift-check off)")
        .doesNotContain(" recheck ")
        .contains("bisection allowance: up to 4 rung(s) per run (the widest gap, 16..32), at most");
  }

  @Test
  void driftTolerance_notAPositivePercentage_isAUsageErrorNamingTheValue() {
    CliRun run = quickstartDryRun("--drift-tolerance", "0");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("--drift-tolerance (0) must be a positive percentage of the first measurement");
  }

  @Test
  void driftCheck_unknownMode_isAUsageErrorListingTheModes() {
    CliRun run = quickstartDryRun("--drift-check", "sometimes");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("drift re-check 'sometimes' is not one of off, end, bisection");
  }

  @Test
  void driftTolerance_withAPercentSign_isAccepted() {
    CliRun run = quickstartDryRun("--drift-tolerance", "12.5%", "--drift-p95-tolerance", "20");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("(beyond 12.5 % throughput or 20 % p95");
  }

  @Test
  void dryRun_windowLongerThanHold_isRefusedNamingBoth() {
    CliRun run =
        qmax("--model", "m", "--platform", "aws", "--slo", "3s", "--dry-run", "--hold", "30s");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("hold (PT30S) must be at least window (PT1M)");
  }

  @Test
  void dryRun_awsDefaults_threeWindowsAddTwoWindowsARungAndTheWorstCaseHoldsEachToTheBound() {
    CliRun run = qmax("--model", "kokoro-82m", "--platform", "aws", "--slo", "3000ms", "--dry-run");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains(
            "stability windows: from the hold's trailing 60 s on, consecutive 60 s windows until 3"
                + " in a row agree (throughput and p95 TTFAB each within 10 % of their mean); a"
                + " rung is held 360 s as predicted (its first 3 windows agree) and at most 480 s"
                + " (--max-hold)");
    List<String> coarse = rows(run.out()).stream().filter(l -> l.contains("coarse")).toList();
    assertThat(coarse).allSatisfy(l -> assertThat(l.trim().split("\\s+")[4]).isEqualTo("360"));
    // coarse: 360.1 + (390.5 + 391 + 392 + 393 + 394 + 395 + 396) s + warm-up 20.4 s = 3132.0 s,
    // 8 x 120 s over the single window's 36m12s, and the idle-start rung's 90 s (the assumed
    // 10 req/s x 0.45 wants 150 requests in 33 s, at least 1.5 windows): 53m42s; the allowance
    // holds 5 rungs to the bound: 5 x (30 + 480 + 6) s = 43m00s
    assertThat(run.out())
        .contains(
            "idle-start rung (after the ladder, not part of Q_max): open-loop Poisson at 0.45 x"
                + " the ladder's best throughput for 90.0 s")
        .contains(
            "coarse ladder, warm-up and idle-start rung 53m42s, at most 1h36m42s with the full"
                + " bisection")
        .contains("and 1 drift re-check(s), at most +43m00s")
        // the worst case: every coarse rung held 480 s, 8 x 240 s more than the single window's
        .contains("worst case, every rung held to the max hold (480 s): ")
        .contains(", at most 1h52m42s with the full bisection allowance");
  }

  @Test
  void dryRun_quickstartLadder_stabilityAddsTenSecondsARungAndTwentyAtWorst() {
    CliRun one = quickstartLadder("--stability-windows", "1", "--no-idle-rung");
    CliRun three = quickstartLadder("--no-idle-rung");

    assertThat(three.exitCode()).as(three.err()).isZero();
    // 11 rungs (6 coarse, 4 bisection, the re-check) at 8 s + drain: 1m55s with one window;
    // three windows hold each 18 s (+110 s), at worst 28 s (+220 s)
    assertThat(one.out()).contains("total: 1m55s wall clock as predicted");
    assertThat(three.out())
        .contains("total: 3m45s wall clock as predicted")
        .contains("worst case, every rung held to the max hold (28 s): 5m35s, at most 5m38s");
    assertThat(one.out())
        .contains("stability windows: off (--stability-windows 1)")
        .doesNotContain("worst case");
  }

  @Test
  void dryRun_quickstartLadder_theIdleStartRungAimsAtItsRequestsAndCountsInTheTotal() {
    CliRun with = quickstartLadder("--stability-windows", "1");
    CliRun without = quickstartLadder("--stability-windows", "1", "--no-idle-rung");

    assertThat(with.exitCode()).as(with.err()).isZero();
    // 47 ms assumed: 21.28 req/s, 0.45 x 21.28 = 9.57 req/s, 150 requests in 15.7 s (inside 7.5 to
    // 20 s for a 5 s window), on top of the ladder's 1m55.x s
    assertThat(with.out())
        .contains(
            "idle-start rung (after the ladder, not part of Q_max): open-loop Poisson at 0.45 x"
                + " the ladder's best throughput for 15.7 s")
        .contains("total: 2m11s wall clock as predicted")
        .contains("coarse ladder, warm-up and idle-start rung 1m26s");
    assertThat(without.out())
        .contains("idle-start rung: none (--no-idle-rung)")
        .contains("total: 1m55s wall clock as predicted");
  }

  @Test
  void stabilityWindows_zero_isAUsageErrorNamingTheValue() {
    CliRun run = quickstartLadder("--stability-windows", "0");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--stability-windows (0) must be at least 1");
  }

  @Test
  void stabilityPercent_outOfRange_isAUsageErrorNamingTheValue() {
    CliRun run = quickstartLadder("--stability-percent", "0");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("--stability-percent (0) must be a percentage above 0 and at most 100");
  }

  @Test
  void maxHold_tooShortForTheWindows_isAUsageErrorWithTheArithmetic() {
    CliRun run = quickstartLadder("--max-hold", "17s");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains(
            "--max-hold (17s) must be at least --hold + (--stability-windows - 1) x --window ="
                + " 8s + 2 x 5s = 18s, so 3 windows fit after the warm-up; lengthen --max-hold or"
                + " lower --stability-windows");
  }

  @Test
  void maxHold_withOneWindow_isAUsageErrorSayingItHasNoEffect() {
    CliRun run = quickstartLadder("--stability-windows", "1", "--max-hold", "30s");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--max-hold has no effect with --stability-windows 1");
  }

  @Test
  void maxHold_given_boundsTheWorstCase() {
    CliRun run = quickstartLadder("--stability-windows", "2", "--max-hold", "40s");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("until 2 in a row agree")
        .contains("a rung is held 13 s as predicted (its first 2 windows agree) and at most 40 s")
        .contains("worst case, every rung held to the max hold (40 s)");
  }
}
