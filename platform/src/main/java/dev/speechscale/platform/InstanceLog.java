package dev.speechscale.platform;

import java.time.Instant;
import java.util.List;

/**
 * One instance's log stream.
 *
 * @param instanceId the instance (local: {@code i-local-3}; AWS: the log stream's instance id)
 * @param firstEventAt when its first line appeared: an upper bound on provisioning
 * @param lines its lines, in order
 */
public record InstanceLog(String instanceId, Instant firstEventAt, List<LogLine> lines) {
  public InstanceLog {
    lines = List.copyOf(lines);
  }

  /**
   * One line.
   *
   * @param at when the platform received it
   * @param message the text, as printed
   */
  public record LogLine(Instant at, String message) {}
}
