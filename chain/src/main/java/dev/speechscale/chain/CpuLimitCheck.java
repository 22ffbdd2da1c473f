package dev.speechscale.chain;

import dev.speechscale.artifacts.EnforcedCpu;
import dev.speechscale.artifacts.Pairing;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.platform.CpuLimit;
import dev.speechscale.platform.Platform;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The CPU limit a measurement runs under: read back from the platform before measuring, refused
 * when the instance type asks for a limit that is not in force (the measurement would describe
 * another instance), and compared between artifacts.
 */
final class CpuLimitCheck {
  private CpuLimitCheck() {}

  /** The limit in force now, or {@code null} when the platform has none below the instance type. */
  static @Nullable EnforcedCpu current(Platform platform, String endpoint) {
    Optional<CpuLimit> limit = platform.cpuLimit(endpoint);
    return limit.map(EnforcedCpu::of).orElse(null);
  }

  /**
   * The limit qmax measures under; stops when it is not in force unless {@code allowUnenforced}, in
   * which case it is recorded as not enforced and a warning printed.
   */
  static @Nullable EnforcedCpu requireEnforced(
      Platform platform,
      String endpoint,
      String model,
      boolean allowUnenforced,
      Consumer<String> notes) {
    Optional<CpuLimit> limit = platform.cpuLimit(endpoint);
    if (limit.isEmpty()) {
      return null;
    }
    CpuLimit l = limit.get();
    if (l.enforced()) {
      notes.accept(endpoint + ": " + l.describe());
      return EnforcedCpu.of(l);
    }
    String message =
        endpoint
            + ": "
            + l.describe()
            + ": Q_max would describe a different instance than the type names";
    if (!allowUnenforced) {
      throw new ChainException(
          message
              + ". Run the platform as root on Linux (a writable cpu cgroup) and redeploy"
              + " (`speech-infra deploy --model "
              + model
              + "`), or pass --allow-unenforced-cpu to measure anyway and record the limit as"
              + " not enforced");
    }
    notes.accept("warning: " + message + "; measuring anyway (--allow-unenforced-cpu)");
    return EnforcedCpu.of(l);
  }

  /**
   * ttotal: the endpoint must run under the limit the ladder was measured under.
   *
   * @return the limit in force now, or {@code null}
   */
  static @Nullable EnforcedCpu requireSameAsLadder(
      Platform platform,
      String endpoint,
      QmaxArtifact q,
      String qmaxFile,
      boolean allowMismatch,
      Consumer<String> progress) {
    EnforcedCpu now = current(platform, endpoint);
    Pairing.Result pair =
        Pairing.cpuLimits(
            "qmax " + qmaxFile,
            Provenance.cpuLimitOf(q.provenance()),
            "endpoint " + endpoint,
            now,
            allowMismatch);
    if (!pair.ok()) {
      throw new ChainException(Refusals.of(pair));
    }
    if (pair.warning() != null) {
      progress.accept("warning: " + pair.warning());
    }
    return now;
  }
}
