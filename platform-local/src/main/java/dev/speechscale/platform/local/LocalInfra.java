package dev.speechscale.platform.local;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.artifacts.ScalingMetricChoice;
import dev.speechscale.platform.Infra;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.PlatformSettings;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * {@code speech-infra deploy|destroy|status} on the local platform: real processes here.
 *
 * @param settings the state directory ({@code null}: the default root)
 * @param model the model; the endpoint is {@code speech-<model>}
 * @param out results
 * @param err progress
 */
record LocalInfra(PlatformSettings settings, String model, PrintStream out, PrintStream err)
    implements Infra {

  private String endpoint() {
    return "speech-" + model;
  }

  private Path root() {
    return settings.stateDir() != null ? settings.stateDir() : LocalPlatform.defaultRoot();
  }

  @Override
  public int deploy(Path config, @Nullable Path plan) {
    EndpointConfig endpointConfig = EndpointConfigFile.read(config).model(model);
    LocalDeployer deployer = new LocalDeployer(root(), line -> err.println(line));
    err.println(
        "deploying "
            + endpointConfig.endpointName()
            + " ("
            + endpointConfig.engine()
            + ", "
            + endpointConfig.instanceType()
            + ", "
            + endpointConfig.minInstances()
            + ".."
            + endpointConfig.maxInstances()
            + " instances) on the local platform");
    LocalDeployer.Deployed d = deployer.deploy(endpointConfig, config, plan);
    out.printf(
        Locale.ROOT,
        "%s is InService with %d instance%s (%.1f s)%n",
        d.endpoint(),
        d.instances(),
        d.instances() == 1 ? "" : "s",
        d.took().toMillis() / 1000.0);
    out.printf(
        Locale.ROOT, "  container API   %s/invocations  (POST, streaming WAV)%n", d.routerUrl());
    out.printf(
        Locale.ROOT,
        "  runtime API     %s  (SageMaker Runtime endpoint override)%n",
        d.runtimeUrl());
    out.printf(
        Locale.ROOT,
        "  WebSocket       %s%s%n",
        d.routerUrl().replace("http", "ws"),
        "/invocations-bidirectional-stream");
    out.printf(
        Locale.ROOT,
        "  scaling         %s%n",
        (d.scalingAttached() ? "attached: " : "off: ") + d.scalingReason());
    out.printf(Locale.ROOT, "  state           %s%n", d.stateDir());
    out.printf(
        Locale.ROOT,
        "next: speech-infra status --model %s%s%n",
        model,
        settings.stateDir() == null ? "" : " --state-dir " + settings.stateDir());
    return 0;
  }

  @Override
  public int destroy(Path config, boolean includeFoundation) {
    LocalDeployer.Destroyed d =
        new LocalDeployer(root(), line -> err.println(line)).destroy(endpoint());
    if (!d.existed()) {
      out.println("nothing to destroy: " + d.endpoint() + " is not deployed locally");
      return 0;
    }
    out.println("destroyed " + d.endpoint() + "; stopped processes " + d.stoppedPids());
    return 0;
  }

  private static String notRunning(LocalDeployer.Report r) {
    return "error: the supervisor of "
        + r.endpoint()
        + " (pid "
        + r.record().supervisorPid()
        + ") is not running (killed or crashed)";
  }

  private String redeploy() {
    return "deploy again with `speech-infra deploy`, or clean up with `speech-infra destroy --model "
        + model
        + "`";
  }

  @Override
  public int status(boolean json) {
    LocalDeployer.Report r =
        new LocalDeployer(root(), line -> err.println(line)).status(endpoint());
    if (json) {
      out.println(LocalStatusJson.JSON.writeValueAsString(LocalStatusJson.of(r)));
      if (!r.supervisorAlive()) {
        err.println(notRunning(r) + "; " + redeploy());
      }
      return r.supervisorAlive() ? 0 : 1;
    }
    if (!r.supervisorAlive()) {
      err.println(notRunning(r));
      err.println(
          r.orphansStopped().isEmpty()
              ? "no orphaned instance processes were left"
              : "stopped "
                  + r.orphansStopped().size()
                  + " orphaned instance process(es): "
                  + r.orphansStopped());
      err.println(redeploy());
      if (r.status() != null) {
        out.println("last published status:");
        printStatus(out, r.status(), r.record());
      }
      return 1;
    }
    // a live supervisor answered with its status
    printStatus(out, Objects.requireNonNull(r.status()), r.record());
    return 0;
  }

  @Override
  public boolean synthesizes() {
    return false;
  }

  @Override
  public int synth(Path config, @Nullable Path plan) {
    throw new PlatformException(
        new PlatformException.Reason.InvalidRequest(
            "the local platform has nothing to synthesize; use speech-infra deploy"));
  }

  /**
   * The attached policies: target tracking on ConcurrentRequestsPerModel with the plan's step
   * scale-in, or (scaling_metric invocations_per_instance) target tracking on
   * InvocationsPerInstance that scales in itself through its low alarm.
   */
  static void printPolicies(PrintStream out, Views.Scaling sc) {
    if (ScalingMetricChoice.INVOCATIONS_PER_INSTANCE.label().equals(sc.scalingMetric())) {
      String metric = MetricQuery.Metric.INVOCATIONS_PER_INSTANCE.cloudWatchName();
      String statistic = sc.scaleInStatistic() == null ? "Sum" : sc.scaleInStatistic();
      out.printf(
          Locale.ROOT,
          "  target tracking  %s %s/%ds > %.3f for %d periods,"
              + " scale-in enabled, cooldowns %ds out / %ds in  [alarm %s]%n",
          metric,
          statistic,
          sc.trackingPeriodS(),
          sc.targetValue(),
          sc.trackingEvaluationPeriods(),
          sc.scaleOutCooldownS(),
          sc.scaleInCooldownS(),
          sc.highAlarmState());
      out.printf(
          Locale.ROOT,
          "  its low alarm    %s %s/%ds < %.3f for %d periods, no step policy  [alarm %s]%n",
          metric,
          statistic,
          sc.scaleInPeriodS(),
          sc.scaleInThreshold(),
          sc.scaleInEvaluationPeriods(),
          sc.lowAlarmState());
      return;
    }
    out.printf(
        Locale.ROOT,
        "  target tracking  "
            + MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName()
            + " Maximum/%ds > %.3f for %d periods,"
            + " scale-in disabled, scale-out cooldown %ds  [alarm %s]%n",
        sc.trackingPeriodS(),
        sc.targetValue(),
        sc.trackingEvaluationPeriods(),
        sc.scaleOutCooldownS(),
        sc.highAlarmState());
    out.printf(
        Locale.ROOT,
        "  step scale-in    "
            + MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName()
            + " %s/%ds <= %.3f for %d periods,"
            + " -1 instance, cooldown %ds  [alarm %s]%n",
        sc.scaleInStatistic() == null ? "Average" : sc.scaleInStatistic(),
        sc.scaleInPeriodS(),
        sc.scaleInThreshold(),
        sc.scaleInEvaluationPeriods(),
        sc.scaleInCooldownS(),
        sc.lowAlarmState());
  }

  static void printStatus(PrintStream out, Views.Status s, LocalState.EndpointRecord r) {
    Views.Describe d = s.describe();
    out.printf(
        Locale.ROOT,
        "%s  %s  desired %d, in service %d  (%s, engine %s)%n",
        d.name(),
        d.status(),
        d.desired(),
        d.current(),
        d.instanceType(),
        r.config().engine());
    if (d.failure() != null) {
      out.printf(Locale.ROOT, "  failure: %s%n", d.failure());
    }
    out.printf(
        Locale.ROOT,
        "  router 127.0.0.1:%d, supervisor pid %d, fingerprint %s%n",
        s.routerPort(),
        s.supervisorPid(),
        r.fingerprintDigest());
    out.println("instances");
    out.printf(
        Locale.ROOT,
        "  %-12s %-8s %-6s %-11s %-9s %-24s %s%n",
        "id",
        "pid",
        "port",
        "phase",
        "in-flight",
        "first log line",
        "in service at");
    for (LocalState.InstanceRecord i : s.instances()) {
      out.printf(
          Locale.ROOT,
          "  %-12s %-8d %-6d %-11s %-9d %-24s %s%n",
          i.id(),
          i.pid(),
          i.port(),
          i.phase(),
          i.inFlight(),
          i.firstLogAt() == null ? "-" : i.firstLogAt(),
          i.inServiceAt() == null ? "-" : i.inServiceAt());
      if (i.cpuLimit() != null) {
        out.printf(Locale.ROOT, "  %-12s cpu: %s%n", "", i.cpuLimit().describe());
      }
    }
    Views.Scaling sc = s.scaling();
    out.println("scaling");
    if (!sc.attached()) {
      out.printf(Locale.ROOT, "  none attached: %s%n", sc.reason());
    } else {
      out.printf(Locale.ROOT, "  %s%n", sc.reason());
      out.printf(
          Locale.ROOT,
          "  scalable target  %s  min %d, max %d%n",
          sc.resourceId(),
          sc.min(),
          sc.max());
      out.printf(
          Locale.ROOT,
          "  suspended        in=%s out=%s scheduled=%s%n",
          sc.suspendedIn(),
          sc.suspendedOut(),
          sc.suspendedScheduled());
      printPolicies(out, sc);
    }
    List<Views.Activity> recent =
        sc.activities().subList(Math.max(0, sc.activities().size() - 5), sc.activities().size());
    for (Views.Activity a : recent) {
      out.printf(Locale.ROOT, "  activity %s  %d -> %d  %s%n", a.at(), a.from(), a.to(), a.cause());
    }
  }
}
