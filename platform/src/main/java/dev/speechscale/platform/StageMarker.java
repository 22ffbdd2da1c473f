package dev.speechscale.platform;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A startup stage marker printed by the container, byte-exact: {@code === STAGE <name>
 * t=<YYYY-MM-DDTHH:MM:SS.mmm>Z elapsed_s=<seconds, 3 decimals> ===}.
 *
 * @param stage the wire name of one of {@link ScaleOutStage#containerStages()} (kept a string: a
 *     marker for a stage this version does not know still parses)
 * @param at the container's own timestamp
 * @param elapsedSeconds seconds since the container started (CONTAINER_START_EPOCH or process
 *     start)
 */
public record StageMarker(String stage, Instant at, double elapsedSeconds) {
  /** The container's stages, in order: {@link ScaleOutStage#containerStages()} by wire name. */
  public static final List<String> STAGES =
      ScaleOutStage.wireNames(ScaleOutStage.containerStages());

  private static final Pattern LINE =
      Pattern.compile(
          "^=== STAGE ([a-z_]+) t=(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3})Z"
              + " elapsed_s=(\\d+\\.\\d{3}) ===$");

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS", Locale.ROOT);

  /** The exact line a container prints for this marker. */
  public String line() {
    return "=== STAGE "
        + stage
        + " t="
        + TIME.format(LocalDateTime.ofInstant(at, ZoneOffset.UTC))
        + "Z elapsed_s="
        + String.format(Locale.ROOT, "%.3f", elapsedSeconds)
        + " ===";
  }

  /** Parses one line; empty unless it is a marker, byte for byte. */
  public static Optional<StageMarker> parse(String line) {
    Matcher m = LINE.matcher(line);
    if (!m.matches()) {
      return Optional.empty();
    }
    Instant at = LocalDateTime.parse(m.group(2), TIME).toInstant(ZoneOffset.UTC);
    return Optional.of(new StageMarker(m.group(1), at, Double.parseDouble(m.group(3))));
  }

  /** Every marker in an instance's log, in log order. */
  public static List<StageMarker> in(InstanceLog log) {
    List<StageMarker> out = new ArrayList<>();
    for (InstanceLog.LogLine l : log.lines()) {
      parse(l.message()).ifPresent(out::add);
    }
    return out;
  }
}
