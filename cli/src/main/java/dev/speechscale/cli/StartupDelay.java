package dev.speechscale.cli;

import dev.speechscale.artifacts.TtotalArtifact;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * How long a simulated instance takes from the scaling decision to taking traffic: the ttotal
 * artifact's {@code desired_set → in_service}. The stages after in_service (traffic_recovered) are
 * the fleet settling, which the simulator models itself; the policy's own detection lag is the
 * simulated alarms, so it is not added either.
 *
 * @param duration desired_set → in_service
 * @param source where it was read, for the artifact
 */
record StartupDelay(Duration duration, String source) {

  static StartupDelay of(TtotalArtifact t, Path file) {
    Instant desired = at(t, "desired_set");
    Instant inService = at(t, "in_service");
    if (desired == null || inService == null || inService.isBefore(desired)) {
      throw new CliException(
          file
              + " has no desired_set and in_service stages in order; the simulator reads the"
              + " start-up delay from them (re-run tts-bench ttotal)");
    }
    Duration d = Duration.between(desired, inService);
    return new StartupDelay(
        d,
        String.format(
            java.util.Locale.ROOT,
            "%s: desired_set -> in_service = %.3f s",
            file.getFileName(),
            d.toMillis() / 1000.0));
  }

  private static Instant at(TtotalArtifact t, String stage) {
    return t.timeline().stream()
        .filter(e -> stage.equals(e.stage()))
        .map(TtotalArtifact.TimelineEntry::at)
        .findFirst()
        .orElse(null);
  }
}
