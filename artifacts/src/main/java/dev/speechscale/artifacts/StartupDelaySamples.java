package dev.speechscale.artifacts;

import dev.speechscale.simulator.StartupDelays;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The simulator's start-up delays from one or more ttotal artifacts: each run's {@code desired_set
 * → in_service}. The stages after in_service (traffic_recovered) are the fleet settling, which the
 * simulator models itself; the policy's own detection lag is the simulated alarms, so it is not
 * added either.
 *
 * @param delays the samples, one per run (every run of a {@code ttotal --runs N} artifact), in the
 *     order given
 * @param source where they were read, for the artifact
 */
public record StartupDelaySamples(StartupDelays delays, String source) {

  /**
   * One ttotal artifact and the name it is reported under.
   *
   * @param artifact the artifact
   * @param file its path or name
   */
  public record Input(TtotalArtifact artifact, String file) {}

  /**
   * Reads every artifact's delay.
   *
   * @throws ArtifactException naming the file when it has no desired_set and in_service in order
   */
  public static StartupDelaySamples of(List<Input> inputs) {
    if (inputs.isEmpty()) {
      throw new ArtifactException(
          "no ttotal artifact: the simulator's start-up delay is desired_set -> in_service from"
              + " one (give --ttotal FILE, more than once for several runs)");
    }
    List<Duration> samples = new ArrayList<>();
    StringBuilder source = new StringBuilder();
    for (Input in : inputs) {
      TtotalRuns runs = in.artifact().runs();
      if (runs != null && !runs.runs().isEmpty()) {
        // a ttotal --runs N artifact: every scale-out it timed is a sample, not only the slowest
        List<String> each = new ArrayList<>();
        for (TtotalRuns.Run r : runs.runs()) {
          Duration d = delay(r.timeline(), in.file() + " run " + (r.runIndex() + 1));
          samples.add(d);
          each.add(String.format(Locale.ROOT, "%.3f", d.toMillis() / 1000.0));
        }
        note(source, in, "of its " + each.size() + " runs = " + String.join(", ", each) + " s");
        continue;
      }
      Duration d = delay(in.artifact(), in.file());
      samples.add(d);
      note(source, in, String.format(Locale.ROOT, "= %.3f s", d.toMillis() / 1000.0));
    }
    if (samples.size() > 1) {
      source.append(
          String.format(
              Locale.ROOT, " (each new instance draws one of the %d, seeded)", samples.size()));
    }
    return new StartupDelaySamples(new StartupDelays(samples), source.toString());
  }

  /**
   * Appends what one artifact gave, after the others: its file name, the stages and {@code what}.
   */
  private static void note(StringBuilder source, Input in, String what) {
    source
        .append(source.isEmpty() ? "" : "; ")
        .append(fileName(in.file()))
        .append(": desired_set -> in_service ")
        .append(what);
  }

  /** desired_set → in_service of one artifact. */
  public static Duration delay(TtotalArtifact t, String file) {
    return delay(t.timeline(), file);
  }

  private static Duration delay(List<TtotalArtifact.TimelineEntry> timeline, String file) {
    Instant desired = at(timeline, "desired_set");
    Instant inService = at(timeline, "in_service");
    if (desired == null || inService == null || inService.isBefore(desired)) {
      throw new ArtifactException(
          file
              + " has no desired_set and in_service stages in order; the simulator's start-up"
              + " delay is desired_set -> in_service (re-run tts-bench ttotal)");
    }
    return Duration.between(desired, inService);
  }

  private static @Nullable Instant at(List<TtotalArtifact.TimelineEntry> timeline, String stage) {
    return timeline.stream()
        .filter(e -> stage.equals(e.stage()) && e.at() != null)
        .map(TtotalArtifact.TimelineEntry::at)
        .findFirst()
        .orElse(null);
  }

  private static String fileName(String file) {
    int slash = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
    return slash < 0 ? file : file.substring(slash + 1);
  }
}
