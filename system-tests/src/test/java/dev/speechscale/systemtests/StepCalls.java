package dev.speechscale.systemtests;

import dev.speechscale.platform.local.AwsCallCounts;
import dev.speechscale.platform.local.AwsControlPlane;
import dev.speechscale.platform.local.LocalPlatform;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;

/**
 * The control-plane calls each step of a chain made and its wall time: the AWS-shaped plane's
 * per-operation counts (when the step ran with {@code --platform aws}) and the endpoint's own
 * control API's per-route counts (every step, since the plane answers through it), each the
 * difference across the step. For measurements/aws-e2e.md; nothing asserts on the times.
 */
final class StepCalls {
  /** One step: its name, wall time, AWS calls per operation, local API calls per route. */
  record Step(
      String name, long wallMs, Map<String, AwsCallCounts.Count> aws, Map<String, Long> local) {
    long awsCalls() {
      return aws.values().stream().mapToLong(AwsCallCounts.Count::calls).sum();
    }

    long awsThrottles() {
      return aws.values().stream().mapToLong(AwsCallCounts.Count::throttles).sum();
    }

    long localCalls() {
      return local.entrySet().stream()
          .filter(e -> !e.getKey().endsWith(" throttled"))
          .mapToLong(Map.Entry::getValue)
          .sum();
    }

    long localThrottles() {
      return local.entrySet().stream()
          .filter(e -> e.getKey().endsWith(" throttled"))
          .mapToLong(Map.Entry::getValue)
          .sum();
    }
  }

  private final @Nullable AwsControlPlane plane;
  private final LocalPlatform local;
  private final String endpoint;
  private final List<Step> steps = new ArrayList<>();

  StepCalls(@Nullable AwsControlPlane plane, LocalPlatform local, String endpoint) {
    this.plane = plane;
    this.local = local;
    this.endpoint = endpoint;
  }

  /** Runs {@code step}, recording its calls and wall time under {@code name}. */
  <T> T step(String name, Callable<T> step) throws Exception {
    Map<String, AwsCallCounts.Count> awsBefore =
        plane == null ? Map.of() : plane.counts().snapshot();
    Map<String, Long> localBefore = localCalls();
    long began = System.nanoTime();
    try {
      return step.call();
    } finally {
      long wallMs = (System.nanoTime() - began) / 1_000_000;
      Map<String, AwsCallCounts.Count> aws =
          plane == null ? Map.of() : AwsCallCounts.between(awsBefore, plane.counts().snapshot());
      Map<String, Long> localAfter = localCalls();
      // a redeploy starts a new supervisor, whose counts start at zero: then all of them are new
      boolean restarted =
          localAfter.entrySet().stream()
              .anyMatch(e -> e.getValue() < localBefore.getOrDefault(e.getKey(), 0L));
      Map<String, Long> localDiff = new TreeMap<>();
      localAfter.forEach((route, n) -> {
        long d = restarted ? n : n - localBefore.getOrDefault(route, 0L);
        if (d != 0) {
          localDiff.put(route, d);
        }
      });
      steps.add(new Step(name, wallMs, aws, localDiff));
    }
  }

  /** The endpoint's control API counts; empty while it is being redeployed (no supervisor). */
  private Map<String, Long> localCalls() {
    try {
      return local.controlCalls(endpoint);
    } catch (RuntimeException redeploying) {
      return Map.of();
    }
  }

  List<Step> steps() {
    return List.copyOf(steps);
  }

  /** The steps by name (the last of a name wins). */
  Map<String, Step> byName() {
    Map<String, Step> out = new LinkedHashMap<>();
    steps.forEach(s -> out.put(s.name(), s));
    return out;
  }

  /** One line per step, then its calls per operation. */
  String text() {
    StringBuilder b = new StringBuilder();
    for (Step s : steps) {
      b.append(
          String.format(
              Locale.ROOT,
              "%-28s %7.1f s  aws %4d calls %3d throttled  local API %4d calls %3d throttled%n",
              s.name(),
              s.wallMs() / 1000.0,
              s.awsCalls(),
              s.awsThrottles(),
              s.localCalls(),
              s.localThrottles()));
      s.aws()
          .forEach((op, c) ->
              b.append(
                  String.format(
                      Locale.ROOT,
                      "    %-50s %4d%s%n",
                      op,
                      c.calls(),
                      c.errors().isEmpty() ? "" : " " + c.errors())));
      s.local()
          .forEach((route, n) ->
              b.append(String.format(Locale.ROOT, "    local %-44s %4d%n", route, n)));
    }
    return b.toString();
  }
}
