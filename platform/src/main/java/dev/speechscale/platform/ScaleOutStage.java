package dev.speechscale.platform;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The stages of a scale-out, in the order they must happen: the one definition of the list. The
 * container prints four of them as stage markers ({@link StageMarker}); {@code tts-bench ttotal}
 * observes the others on the platform and writes all of them into the T_total artifact under their
 * {@link #wireName()}.
 */
public enum ScaleOutStage {
  /** Desired capacity raised by one: the clock starts. */
  DESIRED_SET,
  /** The new instance's first log line. */
  INSTANCE_LOGGING,
  /** The container process started ({@code CONTAINER_START_EPOCH} or the process start). */
  CONTAINER_STARTED,
  /** The serving framework is up. */
  FRAMEWORK_INIT,
  /** The model weights are loaded. */
  WEIGHTS_READY,
  /** The discarded warm-up synthesis finished. */
  WARMUP_DONE,
  /** The container answers {@code /ping}. */
  READY,
  /** The platform reports the new instance in service. */
  IN_SERVICE,
  /** The held probe load is served inside the SLO again. */
  TRAFFIC_RECOVERED;

  /** The container prints the stages from framework start to ready; the platform sees the rest. */
  private static final List<ScaleOutStage> CONTAINER =
      List.copyOf(EnumSet.range(FRAMEWORK_INIT, READY));

  /** The name in stage markers and artifacts, e.g. {@code weights_ready}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The stages the container prints, in order. */
  public static List<ScaleOutStage> containerStages() {
    return CONTAINER;
  }

  /** Every stage's wire name, in order. */
  public static List<String> wireNames(List<ScaleOutStage> stages) {
    return stages.stream().map(ScaleOutStage::wireName).toList();
  }

  /** The stage a wire name names; empty for any other string. */
  static Optional<ScaleOutStage> ofWireName(String wireName) {
    return Arrays.stream(values()).filter(s -> s.wireName().equals(wireName)).findFirst();
  }
}
