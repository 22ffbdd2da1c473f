package dev.speechscale.artifacts;

import dev.speechscale.artifacts.ReplayArtifact.Result;
import dev.speechscale.artifacts.ReplayArtifact.Row;
import org.jspecify.annotations.Nullable;

/**
 * The kinds of {@link Row} a replay comparison writes, each named instead of filled by position.
 */
public final class ReplayRows {
  private ReplayRows() {}

  /** A row judged against {@code tolerance}, with no note. */
  public static Row judged(
      String figure,
      @Nullable Integer minute,
      double predicted,
      double measured,
      double error,
      String errorUnit,
      double tolerance,
      Result result) {
    return new Row(figure, minute, predicted, measured, error, errorUnit, tolerance, result, null);
  }

  /** A row with a side missing, so no error: {@code note} says which. */
  public static Row unmeasured(
      String figure,
      @Nullable Integer minute,
      @Nullable Double predicted,
      @Nullable Double measured,
      String errorUnit,
      double tolerance,
      Result result,
      String note) {
    return new Row(figure, minute, predicted, measured, null, errorUnit, tolerance, result, note);
  }

  /** A row reported beside the judged ones, with no tolerance: {@code note} says why. */
  public static Row reported(
      String figure,
      @Nullable Integer minute,
      @Nullable Double predicted,
      @Nullable Double measured,
      @Nullable Double error,
      @Nullable String errorUnit,
      String note) {
    return new Row(
        figure, minute, predicted, measured, error, errorUnit, null, Result.NOT_JUDGED, note);
  }

  /** A row reported with its plain difference, predicted minus measured, in the figure's unit. */
  public static Row difference(
      String figure, @Nullable Integer minute, double predicted, double measured, String note) {
    return reported(figure, minute, predicted, measured, predicted - measured, null, note);
  }
}
