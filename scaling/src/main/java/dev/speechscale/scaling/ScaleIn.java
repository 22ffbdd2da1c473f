package dev.speechscale.scaling;

import java.time.Duration;
import java.util.Objects;

/**
 * How an endpoint's capacity comes down: not at all, by the target tracking policy's own low alarm,
 * or by a separate step scaling policy (what a SpeechScale plan deploys).
 */
public sealed interface ScaleIn permits ScaleIn.Disabled, ScaleIn.Tracking, StepScaleIn {

  /**
   * How the scale-in alarm treats a period without data: the step policy's own alarm what the plan
   * deploys ({@link TreatMissingData#SCALE_IN_DEPLOYED}), target tracking's low alarm what
   * Application Auto Scaling creates ({@link TreatMissingData#TARGET_TRACKING}), and with no
   * scale-in CloudWatch's default.
   */
  TreatMissingData treatMissingData();

  /** No scale-in policy: target tracking with {@code DisableScaleIn} and nothing else. */
  record Disabled() implements ScaleIn {
    @Override
    public TreatMissingData treatMissingData() {
      return TreatMissingData.MISSING;
    }
  }

  /**
   * Target tracking with scale-in enabled (AWS's default): a low alarm on the tracking policy's
   * metric, statistic and period that fires when the last {@code datapoints} periods are all below
   * {@code thresholdRatio × target} (CloudWatch {@code LessThanThreshold}); desired then becomes
   * {@code max(min, ⌈inService × latest / target⌉)} if that is less than desired now, at most once
   * per {@code cooldown}. See {@link ScalingRules#targetTracking} for where 15 and 0.9 come from.
   *
   * @param datapoints consecutive periods below the low threshold
   * @param thresholdRatio the low threshold as a share of the target
   * @param cooldown after a scale-in, before the next one
   */
  record Tracking(int datapoints, double thresholdRatio, Duration cooldown) implements ScaleIn {
    public Tracking {
      Checks.datapoints("target tracking low-alarm datapoints", datapoints);
      if (!(thresholdRatio > 0 && thresholdRatio < 1)) {
        throw new IllegalArgumentException(
            "target tracking low-alarm threshold ratio ("
                + thresholdRatio
                + ") must be between 0 and 1 exclusive: the low alarm sits below the target;"
                + " AWS uses 0.9");
      }
      Objects.requireNonNull(cooldown, "cooldown");
      Checks.cooldown("scale-in cooldown", cooldown);
    }

    @Override
    public TreatMissingData treatMissingData() {
      return TreatMissingData.TARGET_TRACKING;
    }
  }
}
