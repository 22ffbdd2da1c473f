package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.Header;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.SimulateArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.platform.NanoClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {
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

  private CliRun simulate(String... extra) {
    return CliRun.of(new SimulateCommand(CLOCK), withBase(extra));
  }

  private String[] withBase(String... extra) {
    String[] base = {
      "--qmax", PlanCommandTest.QMAX, "--ttotal", PlanCommandTest.TTOTAL, "--plan", plan.toString()
    };
    String[] all = new String[base.length + extra.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(extra, 0, all, base.length, extra.length);
    return all;
  }

  private String[] shortStep(String name) {
    return new String[] {
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
      "--output",
      dir.resolve(name + ".json").toString(),
      "--report",
      dir.resolve(name + ".html").toString()
    };
  }

  @Test
  void simulate_everyPolicy_printsTheTableAndWritesAValidArtifactAndReport() throws IOException {
    CliRun run = simulate(shortStep("a"));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .startsWith(
            "simulate kokoro-82m: step 10 -> 200 -> 10 req/s at 300 s and 600 s of 900 s, seed 1,"
                + " SLO 3000 ms, metric delay 60 s\n"
                + "instance: 1 slot(s), 17.89 req/s saturated, queue_max_depth 50, deadline 56 s,"
                + " start-up 212.8 s\n\n"
                + "policy             arrived   SLO ok    shed   p50 ms   p95 ms   p99 ms  peak"
                + "    mean    inst-h       cost  out/in   at max\n")
        .contains("\nplan ", "\nnaive ", "\ninvocations ", "\ncpu ", "\nfixed:12 ");
    String json = Files.readString(dir.resolve("a.json"));
    assertThat(ArtifactCodec.validate(ArtifactKind.SIMULATE, json)).isEmpty();
    SimulateArtifact a = ArtifactCodec.readSimulate(dir.resolve("a.json"));
    assertThat(a.policies()).hasSize(5);
    assertThat(a.instance().startupDelayS()).isEqualTo(212.808);
    assertThat(a.inputs()).extracting(f -> f.kind()).containsExactly("qmax", "ttotal", "plan");
    assertThat(a.provenance().command()).startsWith("tts-bench simulate --qmax ");
    String html = Files.readString(dir.resolve("a.html"));
    assertThat(html).contains("<svg", "Policies side by side", "fixed:12");
    assertThat(html).doesNotContain(dir.toString(), "/work/", "/tmp/");
  }

  @Test
  void simulate_sameInputsAndSeed_writeByteIdenticalArtifacts() throws IOException {
    assertThat(simulate(shortStep("a")).exitCode()).isZero();
    assertThat(simulate(shortStep("b")).exitCode()).isZero();

    String a = Files.readString(dir.resolve("a.json"));
    String b =
        Files.readString(dir.resolve("b.json"))
            .replace(dir.resolve("b.json").toString(), dir.resolve("a.json").toString())
            .replace(dir.resolve("b.html").toString(), dir.resolve("a.html").toString());
    assertThat(b).isEqualTo(a);
  }

  @Test
  void simulate_sourceDateEpoch_theSameCommandTwiceWritesTheSameBytes() throws IOException {
    SimulateCommand[] commands = new SimulateCommand[2];
    String[] json = new String[2];
    String[] html = new String[2];
    for (int i = 0; i < 2; i++) {
      commands[i] =
          new SimulateCommand(
              SourceDateEpoch.clock(Map.of("SOURCE_DATE_EPOCH", "1796400000"), Clock.systemUTC()));
      CliRun run = CliRun.of(commands[i], withBase(shortStep("same")));
      assertThat(run.exitCode()).as(run.err()).isZero();
      json[i] = Files.readString(dir.resolve("same.json"));
      html[i] = Files.readString(dir.resolve("same.html"));
      Files.delete(dir.resolve("same.json"));
      Files.delete(dir.resolve("same.html"));
    }

    assertThat(json[1]).isEqualTo(json[0]).contains("\"created_at\" : \"2026-12-04T16:00:00Z\"");
    assertThat(html[1]).isEqualTo(html[0]);
  }

  @Test
  void simulate_badSourceDateEpoch_failsNamingItAndWritesNothing() {
    CliRun run =
        CliRun.of(
            new SimulateCommand(
                SourceDateEpoch.clock(Map.of("SOURCE_DATE_EPOCH", "noon"), Clock.systemUTC())),
            withBase(shortStep("bad")));

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("SOURCE_DATE_EPOCH=noon is not whole seconds");
    assertThat(dir.resolve("bad.json")).doesNotExist();
  }

  @Test
  void simulate_preRoll_isRecordedInTheParametersAndDefaultsToTheAlarmWindow() {
    String[] none = java.util.Arrays.copyOf(shortStep("n"), shortStep("n").length + 2);
    none[none.length - 2] = "--pre-roll";
    none[none.length - 1] = "0s";

    assertThat(simulate(shortStep("w")).exitCode()).isZero();
    assertThat(simulate(none).exitCode()).isZero();

    SimulateArtifact w = ArtifactCodec.readSimulate(dir.resolve("w.json"));
    SimulateArtifact n = ArtifactCodec.readSimulate(dir.resolve("n.json"));
    assertThat(w.provenance().parameters()).containsEntry("pre_roll", "window");
    assertThat(n.provenance().parameters()).containsEntry("pre_roll", "0s");
    // the pre-roll counts nothing: the same arrivals for every policy, with or without it
    for (int i = 0; i < w.policies().size(); i++) {
      assertThat(w.policies().get(i).arrived()).isEqualTo(n.policies().get(i).arrived());
    }
  }

  @Test
  void simulate_artifactsMeasuredOnAws_defaultToCloudWatchsMinuteOfMetricDelay() {
    assertThat(simulate(shortStep("aws")).exitCode()).isZero();

    SimulateArtifact a = ArtifactCodec.readSimulate(dir.resolve("aws.json"));
    assertThat(ArtifactCodec.readQmax(Path.of(PlanCommandTest.QMAX)).platform()).isEqualTo("aws");
    assertThat(a.metricPublicationDelayS()).isEqualTo(60.0);
    assertThat(a.provenance().parameters())
        .containsEntry("metric_delay", "PT1M")
        .containsEntry("metric_delay_source", "the aws platform's default (60 s, 10 s resolution)");
  }

  @Test
  void simulate_artifactsMeasuredOnLocal_defaultToTheLocalPlatformsNoDelay() throws IOException {
    Path localQmax = dir.resolve("qmax-local.json");
    Files.writeString(
        localQmax,
        Files.readString(Path.of(PlanCommandTest.QMAX))
            .replaceFirst("\"platform\"\\s*:\\s*\"aws\"", "\"platform\" : \"local\""));
    String[] args = shortStep("local");
    String[] all = new String[args.length + 6];
    all[0] = "--qmax";
    all[1] = localQmax.toString();
    all[2] = "--ttotal";
    all[3] = PlanCommandTest.TTOTAL;
    all[4] = "--plan";
    all[5] = plan.toString();
    System.arraycopy(args, 0, all, 6, args.length);

    CliRun run = CliRun.of(new SimulateCommand(CLOCK), all);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(ArtifactCodec.readQmax(localQmax).platform()).isEqualTo("local");
    SimulateArtifact a = ArtifactCodec.readSimulate(dir.resolve("local.json"));
    assertThat(a.metricPublicationDelayS()).isZero();
    assertThat(a.provenance().parameters())
        .containsEntry("metric_delay", "PT0S")
        .containsEntry(
            "metric_delay_source", "the local platform's default (0 s, 10 s resolution)");
  }

  @Test
  void simulate_metricDelayGiven_overridesThePlatformsDefault() {
    String[] args = java.util.Arrays.copyOf(shortStep("g"), shortStep("g").length + 2);
    args[args.length - 2] = "--metric-delay";
    args[args.length - 1] = "15s";

    assertThat(simulate(args).exitCode()).isZero();

    SimulateArtifact a = ArtifactCodec.readSimulate(dir.resolve("g.json"));
    assertThat(a.metricPublicationDelayS()).isEqualTo(15.0);
    assertThat(a.provenance().parameters()).containsEntry("metric_delay_source", "given");
  }

  @Test
  void simulate_badPreRoll_isAUsageErrorNamingTheValue() {
    String[] args = java.util.Arrays.copyOf(shortStep("b"), shortStep("b").length + 2);
    args[args.length - 2] = "--pre-roll";
    args[args.length - 1] = "1.5s";

    CliRun run = simulate(args);

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--pre-roll (PT1.5S) must be a whole number of seconds");
  }

  @Test
  void simulate_noTraffic_isAUsageError() {
    CliRun run = simulate();

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "error: Error: Missing required argument (specify one of these): (--trace=FILE |"
                + " --pattern=SHAPE)\n"
                + "Try 'simulate --help'.\n");
  }

  @Test
  void simulate_traceWithPeak_isAUsageError() throws IOException {
    Path trace = Files.writeString(dir.resolve("t.csv"), "time_s,rps\n0,1\n10,0\n");

    CliRun run = simulate("--trace", trace.toString(), "--peak-rps", "5");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .startsWith(
            "error: --peak-rps and --trough-rps shape a --pattern; a --trace has its own rates\n");
  }

  @Test
  void simulate_badTrace_namesFileLineAndValue() throws IOException {
    Path trace = Files.writeString(dir.resolve("t.csv"), "time_s,rps\n0,1\n10,x\n20,0\n");

    CliRun run = simulate("--trace", trace.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .isEqualTo(
            "error: t.csv has 1 bad line; fix it (nothing is guessed):\n"
                + "  t.csv line 3: 'x': rps is not a number\n");
  }

  @Test
  void simulate_unknownPolicy_isAUsageErrorWithTheChoices() {
    CliRun run = simulate("--pattern", "ramp", "--duration", "1m", "--policies", "plan,nope");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "error: --policies: unknown policy 'nope'; choose from plan, plan:average_60s,"
                + " plan:maximum_10s, naive, invocations, cpu, fixed:N (comma-separated)\n"
                + "Try 'simulate --help'.\n");
  }

  @Test
  void simulate_policyNamedTwiceOrFixedWithoutANumber_isAUsageError() {
    CliRun twice = simulate("--pattern", "ramp", "--duration", "1m", "--policies", "plan,PLAN");
    CliRun fixed = simulate("--pattern", "ramp", "--duration", "1m", "--policies", "fixed:0");

    assertThat(twice.exitCode()).isEqualTo(2);
    assertThat(twice.err()).startsWith("error: --policies names 'plan' twice");
    assertThat(fixed.exitCode()).isEqualTo(2);
    assertThat(fixed.err()).startsWith("error: fixed:0: a fixed fleet needs at least 1 instance");
  }

  @Test
  void simulate_arrivalTrace_replaysIt() throws IOException {
    Path trace = Files.writeString(dir.resolve("arrivals.csv"), "arrival_s\n0.5\n1.0\n1.5\n");

    CliRun run =
        simulate(
            "--trace",
            trace.toString(),
            "--policies",
            "fixed:1",
            "--json",
            "--output",
            dir.resolve("x.json").toString(),
            "--report",
            dir.resolve("x.html").toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    SimulateArtifact a = ArtifactCodec.readSimulate(dir.resolve("x.json"));
    assertThat(a.policies().getFirst().arrived()).isEqualTo(3);
    assertThat(a.traffic().description()).isEqualTo("arrivals.csv: 3 recorded arrivals over 2 s");
  }

  @Test
  void simulate_underTtsBench_recordsTheCommandOnce() {
    String[] args = shortStep("t");
    String[] all = new String[args.length + 7];
    all[0] = "simulate";
    all[1] = "--qmax";
    all[2] = PlanCommandTest.QMAX;
    all[3] = "--ttotal";
    all[4] = PlanCommandTest.TTOTAL;
    all[5] = "--plan";
    all[6] = plan.toString();
    System.arraycopy(args, 0, all, 7, args.length);

    CliRun run = CliRun.of(new TtsBench(), all);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(ArtifactCodec.readSimulate(dir.resolve("t.json")).provenance().command())
        .startsWith("tts-bench simulate --qmax ");
  }

  @Test
  void simulate_ttotalTwice_recordsBothStartupDelaysAndBothInputs() throws IOException {
    CliRun run =
        simulate(concat(new String[] {"--ttotal", PlanCommandTest.TTOTAL}, shortStep("t")));

    assertThat(run.exitCode()).as(run.err()).isZero();
    SimulateArtifact a = ArtifactCodec.readSimulate(dir.resolve("t.json"));
    assertThat(a.instance().startupDelaysS()).containsExactly(212.808, 212.808);
    assertThat(a.instance().startupDelaySource())
        .endsWith("(each new instance draws one of the 2, seeded)");
    assertThat(a.inputs())
        .extracting(f -> f.kind())
        .containsExactly("qmax", "ttotal", "ttotal", "plan");
    assertThat(
            ArtifactCodec.validate(ArtifactKind.SIMULATE, Files.readString(dir.resolve("t.json"))))
        .isEmpty();
  }

  private String[] with(String[] args, String... extra) {
    return concat(args, extra);
  }

  private static String withoutProvenance(Path file) throws IOException {
    tools.jackson.databind.node.ObjectNode tree =
        (tools.jackson.databind.node.ObjectNode)
            ArtifactCodec.mapper().readTree(Files.readString(file));
    tree.remove("provenance");
    return tree.toString();
  }

  private Path validateArtifact(String name, ValidateArtifact.RefusalCost cost) {
    Path file = dir.resolve(name);
    ArtifactCodec.write(
        file,
        new ValidateArtifact(
            new Header(
                1,
                "validate",
                "test",
                Instant.EPOCH,
                Provenance.capture("tts-bench validate --live", java.util.Map.of())),
            "kokoro-82m",
            "speech-kokoro-82m",
            "local",
            "plan-kokoro-82m.json",
            cost != null,
            new ValidateArtifact.Verdict(ValidateArtifact.Verdict.Kind.OK, 0),
            java.util.List.of(
                new ValidateArtifact.Check(
                    "live_rejections", ValidateArtifact.Result.OK, "x", "y", "z")),
            null,
            cost));
    return file;
  }

  private static ValidateArtifact.RefusalCost measured(Double secondsPerRefusal) {
    ValidateArtifact.LoadPhase below =
        new ValidateArtifact.LoadPhase("closed_below", "closed-loop", 49, null, 17.9, 0, 0);
    ValidateArtifact.LoadPhase open =
        new ValidateArtifact.LoadPhase("open_above", "open-loop", null, 26.8, 17.2, 9.6, 0);
    return new ValidateArtifact.RefusalCost(
        1,
        50,
        6,
        below,
        below,
        17.9,
        0,
        java.util.List.of(new ValidateArtifact.Refusing(open, 0.004, 0.07, 0.0042, 0.0001)),
        secondsPerRefusal,
        "open_above: open-loop arrivals above what the instance serves");
  }

  @Test
  void simulate_refusalCostZero_writesTheArtifactWithoutTheFlagApartFromProvenance()
      throws IOException {
    assertThat(simulate(shortStep("a")).exitCode()).isZero();
    assertThat(simulate(with(shortStep("z"), "--refusal-cost-ms", "0")).exitCode()).isZero();

    assertThat(withoutProvenance(dir.resolve("z.json")))
        .isEqualTo(withoutProvenance(dir.resolve("a.json")));
    assertThat(ArtifactCodec.readSimulate(dir.resolve("a.json")).provenance().parameters())
        .doesNotContainKeys("refusal_cost_ms", "validate");
  }

  @Test
  void simulate_refusalCost_shedsMoreAndSaysSoInTheDerivationAndParameters() {
    assertThat(simulate(shortStep("a")).exitCode()).isZero();
    CliRun run = simulate(with(shortStep("c"), "--refusal-cost-ms", "5"));

    assertThat(run.exitCode()).as(run.err()).isZero();
    SimulateArtifact free = ArtifactCodec.readSimulate(dir.resolve("a.json"));
    SimulateArtifact costly = ArtifactCodec.readSimulate(dir.resolve("c.json"));
    assertThat(costly.instance().derivation())
        .endsWith(
            "; each 503 at queue_max_depth takes 5.000 ms of the instance (--refusal-cost-ms 5.0)");
    assertThat(costly.provenance().parameters()).containsEntry("refusal_cost_ms", 5.0);
    assertThat(costly.policies().getFirst().shedPct())
        .isGreaterThan(free.policies().getFirst().shedPct());
  }

  @Test
  void simulate_validateArtifact_takesItsMeasuredFigure() {
    Path v = validateArtifact("validate-kokoro-82m.json", measured(0.004));

    CliRun run = simulate(with(shortStep("v"), "--validate", v.toString()));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(ArtifactCodec.readSimulate(dir.resolve("v.json")).instance().derivation())
        .endsWith(
            "; each 503 at queue_max_depth takes 4.000 ms of the instance (validate"
                + " validate-kokoro-82m.json, open_above; baselines 17.90 and 17.90 req/s)");
  }

  private static ValidateArtifact.RefusalCost openLoop(double tauS, double uncertaintyS) {
    ValidateArtifact.LoadPhase below =
        new ValidateArtifact.LoadPhase("closed_below", "closed-loop", 49, null, 17.9, 0, 0);
    ValidateArtifact.LoadPhase storm =
        new ValidateArtifact.LoadPhase("closed_above", "closed-loop", 60, null, 8, 1800, 0);
    ValidateArtifact.LoadPhase open =
        new ValidateArtifact.LoadPhase("open_above", "open-loop", null, 26.8, 15, 10, 0);
    return new ValidateArtifact.RefusalCost(
        1,
        50,
        6,
        below,
        below,
        17.9,
        1,
        java.util.List.of(
            new ValidateArtifact.Refusing(storm, 0.0003, 0.005, 0.0003, 0.00001),
            new ValidateArtifact.Refusing(open, tauS, 0.2, tauS, uncertaintyS)),
        0.0003,
        "closed_above: the open-loop phase does not resolve");
  }

  @Test
  void simulate_severalValidateArtifacts_poolsTheirOpenLoopPhasesLeavingTheStormsOut() {
    // 14 ± 1 ms and 9 ± 2 ms: weights 1e6 and 2.5e5 per s², (14 + 2.25) / 1.25 = 13 ms ± 0.894
    Path a = validateArtifact("validate-a.json", openLoop(0.014, 0.001));
    Path b = validateArtifact("validate-b.json", openLoop(0.009, 0.002));

    CliRun run =
        simulate(with(shortStep("p"), "--validate", a.toString(), "--validate", b.toString()));

    assertThat(run.exitCode()).as(run.err()).isZero();
    SimulateArtifact pooled = ArtifactCodec.readSimulate(dir.resolve("p.json"));
    assertThat(pooled.instance().derivation())
        .endsWith(
            "; each 503 at queue_max_depth takes 13.00 ms of the instance (2 validate artifacts'"
                + " open-loop phases pooled by inverse variance, 13.0 +- 0.89 ms (validate-a.json"
                + " 14.0 +- 1.0, validate-b.json 9.00 +- 2.0 ms))");
    assertThat(pooled.provenance().parameters())
        .containsEntry("validate", java.util.List.of(a.toString(), b.toString()));
  }

  @Test
  void simulate_pooledArtifactWithoutOpenLoopPhase_isRefusedNamingTheFile() {
    Path a = validateArtifact("validate-a.json", openLoop(0.014, 0.001));
    Path b = validateArtifact("validate-storm.json", measured(0.004));
    // measured(...) has an open-loop phase; a file with no refusal_cost at all names its fix
    Path c = validateArtifact("validate-static.json", null);

    CliRun run =
        simulate(
            with(
                shortStep("q"),
                "--validate",
                a.toString(),
                "--validate",
                b.toString(),
                "--validate",
                c.toString()));

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains("validate-static.json has no refusal_cost")
        .contains("run tts-bench validate --live again, or leave it out");
  }

  @Test
  void simulate_validateArtifactMeasuringBelowNoise_takesZeroAndSaysSo() {
    Path v = validateArtifact("validate-kokoro-82m.json", measured(-0.0003));

    CliRun run = simulate(with(shortStep("n"), "--validate", v.toString()));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(ArtifactCodec.readSimulate(dir.resolve("n.json")).instance().derivation())
        .doesNotContain("each 503");
  }

  @Test
  void simulate_validateArtifactWithoutRefusalCost_isRefusedNamingTheFix() {
    Path v = validateArtifact("validate-static.json", null);

    CliRun run = simulate(with(shortStep("s"), "--validate", v.toString()));

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains("validate-static.json has no refusal_cost")
        .contains("run tts-bench validate --live again, or give --refusal-cost-ms");
  }

  @Test
  void simulate_startPhysics_offWritesTheSameArtifact_onIsRecordedInTheParameters()
      throws IOException {
    assertThat(simulate(shortStep("a")).exitCode()).isZero();
    assertThat(
            simulate(
                    with(
                        with(shortStep("o"), "--instance-start-jitter", "0s"),
                        "--capacity-limit",
                        "0"))
                .exitCode())
        .isZero();
    CliRun on =
        simulate(
            with(with(shortStep("j"), "--instance-start-jitter", "30s"), "--capacity-limit", "1"));

    assertThat(on.exitCode()).as(on.err()).isZero();
    assertThat(withoutProvenance(dir.resolve("o.json")))
        .isEqualTo(withoutProvenance(dir.resolve("a.json")));
    assertThat(ArtifactCodec.readSimulate(dir.resolve("a.json")).provenance().parameters())
        .doesNotContainKeys("instance_start_jitter", "capacity_limit");
    assertThat(ArtifactCodec.readSimulate(dir.resolve("j.json")).provenance().parameters())
        .containsEntry("instance_start_jitter", "PT30S")
        .containsEntry("capacity_limit", 1);
  }

  @Test
  void simulate_negativeStartPhysics_isAUsageErrorNamingTheFlag() {
    CliRun jitter = simulate(with(shortStep("m"), "--instance-start-jitter", "PT-5S"));
    CliRun limit = simulate(with(shortStep("m"), "--capacity-limit", "-1"));

    assertThat(jitter.exitCode()).isEqualTo(2);
    assertThat(jitter.err()).contains("--instance-start-jitter (PT-5S) must be at least 0s");
    assertThat(limit.exitCode()).isEqualTo(2);
    assertThat(limit.err()).contains("--capacity-limit (-1) must be at least 0");
  }

  @Test
  void simulate_negativeRefusalCost_isAUsageErrorNamingTheValue() {
    CliRun run = simulate(with(shortStep("m"), "--refusal-cost-ms", "-1"));

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).startsWith("error: --refusal-cost-ms (-1.0) must be a number >= 0");
  }

  @Test
  void simulate_validateAndRefusalCost_isAUsageError() {
    CliRun run = simulate(with(shortStep("b"), "--refusal-cost-ms", "1", "--validate", "v.json"));

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("mutually exclusive");
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = new String[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
