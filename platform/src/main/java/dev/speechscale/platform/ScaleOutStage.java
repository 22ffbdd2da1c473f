package dev.speechscale.platform;

import java.util.Arrays;
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
  DESIRED_SET(false),
  /** The new instance's first log line. */
  INSTANCE_LOGGING(false),
  /** The container process started ({@code CONTAINER_START_EPOCH} or the process start). */
  CONTAINER_STARTED(false),
  /** The serving framework is up. */
  FRAMEWORK_INIT(true),
  /** The model weights are loaded. */
  WEIGHTS_READY(true),
  /** The discarded warm-up synthesis finished. */
  WARMUP_DONE(true),
  /** The container answers {@code /ping}. */
  READY(true),
  /** The platform reports the new instance in service. */
  IN_SERVICE(false),
  /** The held probe load is served inside the SLO again. */
  TRAFFIC_RECOVERED(false);

  private static final List<ScaleOutStage> CONTAINER =
      Arrays.stream(values()).filter(s -> s.printedByContainer).toList();

  private final boolean printedByContainer;

  ScaleOutStage(boolean printedByContainer) {
    this.printedByContainer = printedByContainer;
  }

  /** The name in stage markers and artifacts, e.g. {@code weights_ready}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** True for the stages the container prints as markers. */
  public boolean printedByContainer() {
    return printedByContainer;
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
  public static Optional<ScaleOutStage> ofWireName(String wireName) {
    return Arrays.stream(values()).filter(s -> s.wireName().equals(wireName)).findFirst();
  }
}
