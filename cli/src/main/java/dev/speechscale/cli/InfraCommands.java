package dev.speechscale.cli;

import dev.speechscale.platform.local.LocalState;
import dev.speechscale.platform.local.Views;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;

/** Shared wiring and printing for the {@code speech-infra} commands. */
final class InfraCommands {
  private InfraCommands() {}

  static void requirePlatform(CommandSpec spec, InfraOptions common) {
    if (!common.platform.equals("local") && !common.platform.equals("aws")) {
      throw Cli.usage(spec, "--platform (" + common.platform + ") must be local or aws");
    }
  }

  static void printStatus(PrintWriter out, Views.Status s, LocalState.EndpointRecord r) {
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
      out.printf(
          Locale.ROOT,
          "  target tracking  ConcurrentRequestsPerModel Maximum/%ds > %.3f for %d periods,"
              + " scale-in disabled, scale-out cooldown %ds  [alarm %s]%n",
          sc.trackingPeriodS(),
          sc.targetValue(),
          sc.trackingEvaluationPeriods(),
          sc.scaleOutCooldownS(),
          sc.highAlarmState());
      out.printf(
          Locale.ROOT,
          "  step scale-in    ConcurrentRequestsPerModel Average/%ds <= %.3f for %d periods,"
              + " -1 instance, cooldown %ds  [alarm %s]%n",
          sc.scaleInPeriodS(),
          sc.scaleInThreshold(),
          sc.scaleInEvaluationPeriods(),
          sc.scaleInCooldownS(),
          sc.lowAlarmState());
    }
    List<Views.Activity> recent =
        sc.activities().subList(Math.max(0, sc.activities().size() - 5), sc.activities().size());
    for (Views.Activity a : recent) {
      out.printf(Locale.ROOT, "  activity %s  %d -> %d  %s%n", a.at(), a.from(), a.to(), a.cause());
    }
  }
}
