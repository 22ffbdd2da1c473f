package dev.speechscale.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.local.AwsCallCounts;
import dev.speechscale.platform.local.AwsControlPlane;
import dev.speechscale.platform.local.LocalPlatform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chain through the unmodified AWS adapter and the real AWS SDK: {@code --platform aws
 * --endpoint-url <the local AWS-shaped control plane> --runtime-url <the local router>} against a
 * locally deployed endpoint, with tiny durations: drift → qmax → ttotal → a {@code kill -9} of
 * ttotal mid-scale-out, which drift reports and thaw repairs (its capacity change refused while the
 * endpoint is Updating, then sent again once it is InService) → plan → deploy behind the plan
 * (locally, as {@code speech-infra deploy} does) → validate --live → a {@code kill -9} of qmax with
 * capacity pinned, which drift reports and thaw repairs. Every control-plane call the chain makes
 * goes over SageMaker's, Application Auto Scaling's, CloudWatch's and CloudWatch Logs' wire
 * protocols. A new instance is in service no sooner than 10 s after it is requested ({@code
 * local.aws_physics.instance_start_s}): an Updating spell long enough for the kill scenario to meet
 * it, as SageMaker's minutes-long provisioning would.
 *
 * <p>Each step's control-plane calls (per operation, throttles apart) and wall time are recorded
 * ({@link StepCalls}) and printed. {@code -Dawse2e.local=true} first runs the same chain with
 * {@code --platform local} on the same endpoint, and {@code -Dawse2e.table=FILE} writes both side
 * by side as markdown (measurements/aws-e2e.md).
 */
class AwsChainEndToEndTest {
  static final String MODEL = "awse2e";
  static final String ENDPOINT = "speech-" + MODEL;
  static final String UPDATE = "SageMaker.UpdateEndpointWeightsAndCapacities";

  @TempDir Path dir;

  @Test
  void chain_withPlatformAws_againstTheLocalControlPlane_producesValidArtifacts() throws Exception {
    try (LocalEndpoint endpoint =
            LocalEndpoint.configured(dir, MODEL, "aws_physics: {instance_start_s: 10}\n");
        LocalPlatform local = new LocalPlatform(endpoint.state())) {
      endpoint.deploy();
      @Nullable StepCalls onLocal = null;
      if (Boolean.getBoolean("awse2e.local")) {
        onLocal = new StepCalls(null, local, ENDPOINT);
        Path qmax = measure(endpoint, onLocal, new String[0]);
        validateLive(endpoint, onLocal, new String[0], qmax);
        Files.delete(dir.resolve("plan-" + MODEL + ".json"));
        endpoint.deploy(); // as first deployed again: no plan, no scaling
        awaitSettled(local, 1);
      }
      try (AwsControlPlane plane = AwsControlPlane.start(endpoint.state(), "us-east-1", 0)) {
        String[] aws = {
          "--platform",
          "aws",
          "--region",
          "us-east-1",
          "--endpoint-url",
          plane.uri().toString(),
          "--runtime-url",
          local.routerUri(ENDPOINT).toString()
        };
        StepCalls steps = new StepCalls(plane, local, ENDPOINT);
        try {
          Path qmax = measure(endpoint, steps, aws);
          killTtotalMidScaleOut(endpoint, plane, local, steps, aws, qmax);
          // deploy behind the plan replaces the endpoint: its router listens on a new port
          validateLive(endpoint, steps, aws, qmax, local);
          killQmaxWithCapacityPinned(endpoint, local, steps, aws);
        } finally {
          String table = System.getProperty("awse2e.table");
          if (table != null) { // written however the run ends: a failed step is its last row
            Files.writeString(Path.of(table), StepTable.markdown(onLocal, steps));
          }
        }

        System.err.println("control-plane calls per step over the AWS wire:\n" + steps.text());
        System.err.println("all calls: " + AwsCallCounts.json(plane.counts().snapshot()));
        assertThat(plane.calls())
            .containsKeys(
                "SageMaker.DescribeEndpoint",
                "SageMaker.DescribeModel",
                UPDATE,
                "ApplicationAutoScaling.DescribeScalingPolicies",
                "ApplicationAutoScaling.RegisterScalableTarget",
                "CloudWatch.DescribeAlarms",
                "CloudWatch.GetMetricData",
                "CloudWatchLogs.GetLogEvents");
      }
    }
  }

  /** drift → qmax → ttotal; returns the qmax artifact (ttotal's beside it). */
  private Path measure(LocalEndpoint endpoint, StepCalls steps, String[] platform)
      throws Exception {
    Cli drift =
        steps.step(
            "drift",
            () -> endpoint.ttsBench(LocalEndpoint.concat(new String[] {"drift"}, platform)));
    assertThat(drift.exitCode()).as(drift.out() + drift.err()).isZero();

    steps.step(
        "qmax",
        () ->
            endpoint.qmax(
                LocalEndpoint.concat(
                    platform,
                    "--rungs",
                    "1,2,4",
                    "--warmup",
                    "3s",
                    // CloudWatch's finest period is 10 s: a window holds at least one whole period
                    "--hold",
                    "12s",
                    "--window",
                    "11s",
                    "--stability-windows",
                    "1",
                    // no idle between rungs, as on the local platform: aws's default 30 s settle
                    // lets a SageMaker GPU queue drain; flite's closed loop drains on its own, and
                    // the settle before rungs 2, 4 and the drift re-check held 90 of qmax's 163 s
                    "--settle",
                    "0s",
                    "--no-refine",
                    // the idle-start rung records nothing through the response stream (SageMaker's
                    // runtime passes no X-Queue-Wait-Us header, and the local runtime path
                    // mirrors it): it held 26 s of this step; ChainEndToEndTest and IdleRungTest
                    // cover the rung on the paths where it records
                    "--no-idle-rung")));
    Path qmax = endpoint.qmaxFile();
    assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, Files.readString(qmax))).isEmpty();
    QmaxArtifact qa = ArtifactCodec.readQmax(qmax);
    assertThat(qa.qMax()).isPositive();

    Path ttotal =
        steps.step(
            "ttotal",
            // 3 min: on a loaded two-core machine the probe's p95 can take minutes to come back
            // under 1.25x the ladder's (seen: no recovery within 2 min at a load average of 15)
            () -> endpoint.ttotal(qmax, LocalEndpoint.concat(platform, "--timeout", "3m")));
    TtotalArtifact ta = ArtifactCodec.readTtotal(ttotal);
    assertThat(ta.missingStages()).isEmpty();
    long sumMs = ta.durations().stream().mapToLong(d -> Math.round(d.seconds() * 1000)).sum();
    assertThat(sumMs).isEqualTo(Math.round(ta.tTotalS() * 1000));
    return qmax;
  }

  /** plan → deploy behind it → validate --live (1 s phases). */
  private void validateLive(LocalEndpoint endpoint, StepCalls steps, String[] platform, Path qmax)
      throws Exception {
    validateLive(endpoint, steps, platform, qmax, null);
  }

  /**
   * plan → deploy behind it → validate --live (1 s phases); with {@code local}, the {@code
   * --runtime-url} in {@code platform} is replaced by the redeployed endpoint's router.
   */
  private void validateLive(
      LocalEndpoint endpoint,
      StepCalls steps,
      String[] givenPlatform,
      Path qmax,
      @Nullable LocalPlatform local)
      throws Exception {
    Path plan = endpoint.plan(qmax, dir.resolve("ttotal.json"), "--peak-streams", "6");
    steps.step("deploy behind the plan (local)", () -> endpoint.deployBehind(plan));
    // the deploy replaced the endpoint and its router, which now listens on a new port: a
    // --runtime-url taken before it reaches nothing (validate's load then served nothing, and
    // live_scale_out waited its whole bound T for a scale-out no request could cause)
    String[] platform =
        local == null ? givenPlatform : withRuntime(givenPlatform, local.routerUri(ENDPOINT));
    Path validate = dir.resolve("validate.json");
    Cli v =
        steps.step(
            "validate --live",
            () ->
                Cli.ttsBench(
                    LocalEndpoint.concat(
                        LocalEndpoint.concat(
                            LocalEndpoint.concat(new String[] {"validate"}, endpoint.behind(plan)),
                            platform),
                        "--live",
                        "--phase",
                        "1s",
                        "--output",
                        validate.toString())));
    assertThat(ArtifactCodec.validate(ArtifactKind.VALIDATE, Files.readString(validate)))
        .as(v.err())
        .isEmpty();
    ValidateArtifact va = ArtifactCodec.readValidate(validate);
    if (va.timeline() != null) { // where validate --live's wall time goes, for measurements/
      System.err.println("validate --live phases (s from its start): " + va.timeline().phases());
    }
    // the load reached the endpoint: below queue_max_depth, one instance serves
    assertThat(va.refusalCost()).as(v.err()).isNotNull();
    assertThat(va.refusalCost().baselineBefore().servedRps()).as(v.err()).isPositive();
    assertThat(va.checks())
        .extracting(ValidateArtifact.Check::name)
        .contains(
            "scaling_target_value",
            "scale_in_threshold",
            "queue_max_depth",
            "live_rejections",
            "live_slo_at_threshold_load",
            "live_surge",
            "live_scale_out");
    assertThat(v.exitCode()).as(v.out() + v.err()).isEqualTo(va.verdict().failed() ? 1 : 0);
  }

  /** {@code platform} with its {@code --runtime-url} value replaced by {@code runtime}. */
  static String[] withRuntime(String[] platform, java.net.URI runtime) {
    String[] out = platform.clone();
    for (int i = 0; i + 1 < out.length; i++) {
      if (out[i].equals("--runtime-url")) {
        out[i + 1] = runtime.toString();
      }
    }
    return out;
  }

  /**
   * {@code kill -9} of ttotal right after it raised the desired count: the new instance is still
   * provisioning (Updating), drift names the thaw that restores the count, and thaw's capacity
   * change is refused as SageMaker refuses it ("Cannot update in-progress endpoint"), waited out
   * and sent again; drift is clean once the extra instance is gone.
   */
  private void killTtotalMidScaleOut(
      LocalEndpoint endpoint,
      AwsControlPlane plane,
      LocalPlatform local,
      StepCalls steps,
      String[] aws,
      Path qmax)
      throws Exception {
    awaitSettled(local, 1);
    String[] ttotal =
        LocalEndpoint.concat(
            LocalEndpoint.concat(
                LocalEndpoint.concat(new String[] {"ttotal"}, endpoint.where()), aws),
            "--qmax",
            qmax.toString(),
            // a fresh JVM's first requests (the SDK invoker's start) take more than 1 s
            "--settle",
            "5s",
            "--recovery-window",
            "2s",
            "--new-instance-for",
            "0s",
            "--timeout",
            "2m",
            "--output",
            dir.resolve("killed-ttotal.json").toString());
    steps.step(
        "ttotal until desired 2, kill -9",
        () -> killNine(dir.resolve("killed-ttotal.log"), "desired 2 set at", ttotal));
    EndpointDescription killed = local.describe(ENDPOINT);
    assertThat(killed.desiredInstances()).as("ttotal raised the desired count").isEqualTo(2);
    assertThat(killed.status())
        .as("the new instance is still provisioning (instance_start_s 10)")
        .isEqualTo(EndpointStatus.UPDATING);

    Cli drift =
        steps.step(
            "drift after the kill",
            () -> endpoint.ttsBench(LocalEndpoint.concat(new String[] {"drift"}, aws)));
    assertThat(drift.exitCode()).as(drift.out()).isEqualTo(1);
    assertThat(drift.out()).contains("tts-bench thaw --model " + MODEL + " --desired 1");

    long mark = lastSequence(plane);
    Cli thaw =
        steps.step(
            "thaw --desired 1",
            () ->
                endpoint.ttsBench(
                    LocalEndpoint.concat(
                        LocalEndpoint.concat(new String[] {"thaw"}, aws), "--desired", "1")));
    assertThat(thaw.exitCode()).as(thaw.err()).isZero();
    assertThat(thaw.err()).contains("was refused while " + ENDPOINT + " is UPDATING");
    assertThat(thaw.out()).contains("desired 2 -> 1");
    assertThat(capacityChangesSince(plane, mark))
        .as("refused while Updating, accepted once InService")
        .containsExactly("ValidationException", "accepted");

    Cli clean = steps.step("drift until clean", () -> awaitClean(endpoint, aws));
    assertThat(clean.exitCode()).as(clean.out()).isZero();
  }

  /**
   * {@code kill -9} of qmax once it pinned capacity (an endpoint of two instances pinned to one):
   * no exit path runs, drift names {@code thaw --desired 2}, thaw restores it, drift is clean.
   */
  private void killQmaxWithCapacityPinned(
      LocalEndpoint endpoint, LocalPlatform local, StepCalls steps, String[] givenAws)
      throws Exception {
    // beside no plan: this endpoint runs without scaling, at its floor of two
    Path two = Files.createDirectories(dir.resolve("two")).resolve("endpoints.yaml");
    Files.writeString(
        two, Files.readString(endpoint.config()).replace("min_instances: 1", "min_instances: 2"));
    String[] where = {
      "--model", MODEL, "--state-dir", endpoint.state().toString(), "--config", two.toString()
    };
    Cli deploy = Cli.speechInfra(LocalEndpoint.concat(new String[] {"deploy"}, where));
    assertThat(deploy.exitCode()).as(deploy.err()).isZero();
    awaitSettled(local, 2);
    String[] aws = withRuntime(givenAws, local.routerUri(ENDPOINT)); // the deploy moved the router

    String[] qmax =
        LocalEndpoint.concat(
            LocalEndpoint.concat(LocalEndpoint.concat(new String[] {"qmax"}, where), aws),
            "--rungs",
            "1,2",
            "--warmup",
            "0s",
            "--hold",
            "60s",
            "--window",
            "30s",
            "--output",
            dir.resolve("killed-qmax.json").toString());
    steps.step(
        "qmax until pinned, kill -9",
        () -> killNine(dir.resolve("killed-qmax.log"), "froze " + ENDPOINT, qmax));
    assertThat(local.describe(ENDPOINT).desiredInstances())
        .as("kill -9 runs no exit path: capacity stays pinned")
        .isEqualTo(1);

    Cli drift =
        steps.step(
            "drift after the kill (qmax)",
            () ->
                Cli.ttsBench(
                    LocalEndpoint.concat(
                        LocalEndpoint.concat(new String[] {"drift"}, where), aws)));
    assertThat(drift.exitCode()).as(drift.out()).isEqualTo(1);
    assertThat(drift.out()).contains("tts-bench thaw --model " + MODEL + " --desired 2");

    Cli thaw =
        steps.step(
            "thaw --desired 2",
            () ->
                Cli.ttsBench(
                    LocalEndpoint.concat(
                        LocalEndpoint.concat(
                            LocalEndpoint.concat(new String[] {"thaw"}, where), aws),
                        "--desired",
                        "2")));
    assertThat(thaw.exitCode()).as(thaw.err()).isZero();
    assertThat(thaw.out()).contains("desired 1 -> 2");

    Cli clean = steps.step("drift until clean (qmax)", () -> awaitClean(where, aws));
    assertThat(clean.exitCode()).as(clean.out()).isZero();
    assertThat(local.describe(ENDPOINT).desiredInstances()).isEqualTo(2);
  }

  /**
   * Runs {@code tts-bench args} in a child JVM, waits (at most 2 min) until its output shows {@code
   * marker}, then kills it with SIGKILL; returns its output.
   */
  private static String killNine(Path log, String marker, String... args) throws Exception {
    Process p = Cli.start(log, args);
    try {
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (!read(log).contains(marker)) {
        assertThat(p.isAlive())
            .as(args[0] + " ended before '" + marker + "':\n" + read(log))
            .isTrue();
        assertThat(System.nanoTime())
            .as(args[0] + " printed no '" + marker + "' in 2 min:\n" + read(log))
            .isLessThan(deadline);
        p.waitFor(100, TimeUnit.MILLISECONDS);
      }
    } finally {
      p.destroyForcibly(); // SIGKILL: no shutdown hook, no restore
      p.waitFor(30, TimeUnit.SECONDS);
    }
    return read(log);
  }

  private static String read(Path log) throws java.io.IOException {
    return Files.exists(log) ? Files.readString(log) : "";
  }

  private static long lastSequence(AwsControlPlane plane) {
    List<AwsCallCounts.Call> j = plane.counts().journal();
    return j.isEmpty() ? 0 : j.getLast().sequence();
  }

  /** The answers to UpdateEndpointWeightsAndCapacities after {@code mark}, in order. */
  private static List<String> capacityChangesSince(AwsControlPlane plane, long mark) {
    return plane.counts().journal().stream()
        .filter(c -> c.sequence() > mark && c.operation().equals(UPDATE))
        .map(c -> c.error() == null ? "accepted" : c.error())
        .toList();
  }

  /** Waits (bounded, 2 min) until the fleet is InService at {@code count} instances. */
  private static void awaitSettled(LocalPlatform local, int count) throws Exception {
    LocalEndpoint.await(
        "the fleet InService at " + count,
        Duration.ofMinutes(2),
        () -> local.describe(ENDPOINT),
        d ->
            d.status() == EndpointStatus.IN_SERVICE
                && d.desiredInstances() == count
                && d.currentInstances() == count);
  }

  private static Cli awaitClean(LocalEndpoint endpoint, String[] aws) throws Exception {
    return awaitClean(endpoint.where(), aws);
  }

  /** drift (bounded, 90 s) until it is clean: a thaw's capacity change takes an instance start. */
  private static Cli awaitClean(String[] where, String[] aws) throws Exception {
    String[] drift = LocalEndpoint.concat(LocalEndpoint.concat(new String[] {"drift"}, where), aws);
    return LocalEndpoint.awaitDrift(Duration.ofSeconds(90), drift);
  }
}
