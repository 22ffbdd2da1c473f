package dev.speechscale.chain;

import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.EnforcedCpu;
import dev.speechscale.artifacts.Pairing;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.Platform;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * What {@code ttotal} settles before it touches the endpoint: the ladder's transport, fingerprint
 * and enforced CPU limit against the endpoint's, and the probe's N with the ladder p95 it is judged
 * against.
 */
final class TtotalPreflight {
  private TtotalPreflight() {}

  /** What ttotal checked before touching the endpoint: the deployment and its CPU limit. */
  record Checked(DeployedConfig deployed, @Nullable EnforcedCpu cpu) {}

  /**
   * Refuses a ladder of another transport, fingerprint or enforced CPU limit than the endpoint's.
   */
  static Checked check(
      Platform platform, String endpoint, TtotalRun.Options o, Consumer<String> progress) {
    QmaxArtifact q = o.qmax();
    if (!q.transport().equals(o.probe().transport().label())) {
      throw new ChainException(
          "the probe would use "
              + o.probe().transport().label()
              + " but the ladder"
              + " in "
              + o.qmaxFile()
              + " was measured on "
              + q.transport()
              + "; recovery is judged"
              + " against the ladder, so use --transport "
              + q.transport()
              + " or re-measure qmax");
    }
    Fingerprint fp = platform.fingerprint(endpoint);
    DeployedConfig deployed =
        new DeployedConfig(fp.instanceType(), fp.imageDigest(), fp.containerEnv());
    Pairing.Result pair =
        Pairing.fingerprints(
            "qmax " + o.qmaxFile(),
            q.deployedConfig(),
            "endpoint " + endpoint,
            deployed,
            o.allowConfigMismatch());
    if (!pair.ok()) {
      throw new ChainException(Refusals.of(pair));
    }
    if (pair.warning() != null) {
      progress.accept("warning: " + pair.warning());
    }
    EnforcedCpu cpu =
        CpuLimitCheck.requireSameAsLadder(
            platform, endpoint, q, o.qmaxFile(), o.allowConfigMismatch(), progress);
    return new Checked(deployed, cpu);
  }

  /**
   * The probe's N: given and checked, or the largest even usable rung ≤ Q_max with its half; when
   * no such pair exists, the largest pair among the usable rungs and those that only failed to
   * settle ({@link #unsettled}: measured, their windows did not agree), which {@link TtotalRun}
   * then names in a warning and the artifact's notes. A noisy machine leaves rungs unsettled; the
   * quickstart then measures T_total against their figures instead of stopping.
   */
  static int probe(QmaxArtifact q, @Nullable Integer requested, String file) {
    TreeSet<Integer> usable = rungs(q, false);
    if (requested != null) {
      if (requested < 2
          || requested % 2 != 0
          || !usable.contains(requested)
          || !usable.contains(requested / 2)) {
        throw new ChainException(
            "missing recovery rungs: --probe-concurrency "
                + requested
                + " needs usable rungs at "
                + requested
                + " and "
                + requested / 2
                + " in "
                + file
                + " (usable rungs: "
                + usable
                + "); pick another N or re-run qmax with both rungs");
      }
      return requested;
    }
    int qMax = q.qMax() == null ? 0 : q.qMax();
    TreeSet<Integer> measured = rungs(q, true);
    for (TreeSet<Integer> candidates : List.of(usable, measured)) {
      for (int n : candidates.descendingSet()) {
        if (n <= qMax && n >= 2 && n % 2 == 0 && candidates.contains(n / 2)) {
          return n;
        }
      }
    }
    TreeSet<Integer> unsettled = new TreeSet<>(measured);
    unsettled.removeAll(usable);
    throw new ChainException(
        "missing recovery rungs: "
            + file
            + " has no usable even rung N <="
            + " Q_max ("
            + qMax
            + ") whose half is also a usable rung (usable rungs: "
            + usable
            + (unsettled.isEmpty() ? "" : ", unsettled: " + unsettled)
            + ")"
            + unusableReasons(q, usable, unsettled)
            + (unsettled.isEmpty()
                ? "; re-run qmax with rungs like 2, 4, 8"
                // the rungs were run: asking for them again does not help on the same machine
                : "; rungs "
                    + unsettled
                    + " were measured but their windows never agreed, as on a busy machine:"
                    + " re-run qmax on a quiet one, or with --stability-windows 1 to take each"
                    + " rung's last window as it is"));
  }

  /**
   * The first reason of each rung that is neither usable nor unsettled, so a refusal says what
   * disqualified the rung a pair needed (a client-bound or failing rung is not measured against).
   */
  private static String unusableReasons(
      QmaxArtifact q, TreeSet<Integer> usable, TreeSet<Integer> unsettled) {
    Map<Integer, String> reasons = new TreeMap<>();
    for (QmaxStep s : q.steps()) {
      int n = s.concurrency();
      if (!usable.contains(n) && !unsettled.contains(n) && s.unusableReason() != null) {
        reasons.putIfAbsent(n, s.unusableReason());
      }
    }
    StringBuilder out = new StringBuilder();
    reasons.forEach((n, r) -> out.append("; rung ").append(n).append(" was ").append(r));
    return out.toString();
  }

  /**
   * The rungs with a p95: usable ones, and with {@code withUnsettled} those that did not settle.
   */
  private static TreeSet<Integer> rungs(QmaxArtifact q, boolean withUnsettled) {
    TreeSet<Integer> rungs = new TreeSet<>();
    for (QmaxStep s : q.steps()) {
      if (s.ttfabP95Ms() != null && (s.isUsable() || (withUnsettled && unsettled(s)))) {
        rungs.add(s.concurrency());
      }
    }
    return rungs;
  }

  /**
   * A step unusable only because it was not steady: its stability windows never agreed (measured in
   * full, its figures moved more than the stability rule allows; on a shared machine, often its p95
   * over a few dozen requests per window), or its one window's TTFAB drifted more than the settle
   * rule allows (the same question over one window: a ladder run with one stability window, as tiny
   * test runs are, fails it where a longer one would be unstable).
   */
  static boolean unsettled(QmaxStep s) {
    String reason = s.unusableReason();
    if (s.isUsable() || reason == null) {
      return false;
    }
    return reason.startsWith("not settled")
        || (reason.startsWith("unstable") && s.stability() != null && !s.stability().stable());
  }

  /** Of {@code ns}, the rungs with no usable step, only an unsettled one. */
  static List<Integer> unsettledOnly(QmaxArtifact q, int... ns) {
    List<Integer> out = new ArrayList<>();
    for (int n : ns) {
      boolean usable = q.steps().stream().anyMatch(s -> s.concurrency() == n && s.isUsable());
      if (!usable && q.steps().stream().anyMatch(s -> s.concurrency() == n && unsettled(s))) {
        out.add(n);
      }
    }
    return out;
  }

  /** The ladder's p95 TTFAB at rung {@code n} (the worst across runs). */
  static double p95At(QmaxArtifact q, int n) {
    OptionalDouble usable = p95At(q, n, QmaxStep::isUsable);
    return (usable.isPresent() ? usable : p95At(q, n, TtotalPreflight::unsettled))
        .orElseThrow(() -> new ChainException("the ladder has no usable rung at " + n));
  }

  private static OptionalDouble p95At(QmaxArtifact q, int n, Predicate<QmaxStep> which) {
    return q.steps().stream()
        .filter(s -> s.concurrency() == n && which.test(s))
        .map(QmaxStep::ttfabP95Ms)
        .filter(Objects::nonNull)
        .mapToDouble(Double::doubleValue)
        .max();
  }
}
