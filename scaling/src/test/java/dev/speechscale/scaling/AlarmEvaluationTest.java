package dev.speechscale.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The two tables of the CloudWatch User Guide, "Configuring how CloudWatch alarms treat missing
 * data", section "How alarm state is evaluated when data is missing" (evaluation range 5,
 * Evaluation Periods 3, Datapoints to Alarm 3 and then 2), row by row and treatment by treatment,
 * plus the "premature alarm" examples of the section after it. Data points are written as the guide
 * writes them, oldest first: 0 not breaching, X breaching, - missing. "keep" is the guide's "Retain
 * current state", checked from both OK and ALARM.
 */
class AlarmEvaluationTest {
  private static final double THRESHOLD = 5;

  @ParameterizedTest(name = "{0} M={1}: missing {2}, ignore {3}, breaching {4}, notBreaching {5}")
  @CsvSource({
    // first table: N = 3, M = 3
    "0-X-X, 3, OK, OK, OK, OK",
    "0----, 3, OK, OK, OK, OK",
    "-----, 3, INSUFFICIENT_DATA, keep, ALARM, OK",
    "0XX-X, 3, ALARM, ALARM, ALARM, ALARM",
    "--X--, 3, ALARM, keep, ALARM, OK",
    // second table: N = 3, M = 2
    "0-X-X, 2, ALARM, ALARM, ALARM, ALARM",
    "00X0X, 2, ALARM, ALARM, ALARM, ALARM",
    "0-X--, 2, OK, OK, ALARM, OK",
    "----0, 2, OK, OK, ALARM, OK",
    "---X-, 2, ALARM, keep, ALARM, OK",
  })
  void evaluate_theGuidesTables(
      String points,
      int datapointsToAlarm,
      String missing,
      String ignore,
      String breaching,
      String notBreaching) {
    double[] range = parse(points);

    check(range, datapointsToAlarm, TreatMissingData.MISSING, missing);
    check(range, datapointsToAlarm, TreatMissingData.IGNORE, ignore);
    check(range, datapointsToAlarm, TreatMissingData.BREACHING, breaching);
    check(range, datapointsToAlarm, TreatMissingData.NOT_BREACHING, notBreaching);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"----X", "---X-"})
  void evaluate_aRecentLoneBreach_doesNotAlarmPrematurely(String points) {
    // "the alarm does not go immediately into ALARM state when the data is either - - - - X or
    // - - - X - and Datapoints to Alarm is 3": it keeps its state
    for (AlarmState current : AlarmState.values()) {
      assertThat(
              AlarmEvaluation.evaluate(
                  parse(points), 3, 3, v -> v > THRESHOLD, TreatMissingData.MISSING, current))
          .isEqualTo(current);
    }
  }

  @Test
  void evaluate_enoughRealPointsFartherBack_ignoresTheTreatment() {
    // X X - X - : three real points in the range, the newest three real ones all breach
    for (TreatMissingData t : TreatMissingData.values()) {
      assertThat(
              AlarmEvaluation.evaluate(parse("XX-X-"), 3, 3, v -> v > THRESHOLD, t, AlarmState.OK))
          .as(t.awsName())
          .isEqualTo(AlarmState.ALARM);
    }
  }

  @Test
  void evaluate_refusesARangeShorterThanItsEvaluationPeriods() {
    assertThatThrownBy(() ->
            AlarmEvaluation.evaluate(
                new double[2], 3, 3, v -> true, TreatMissingData.MISSING, AlarmState.OK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("evaluation range (2)");
  }

  @Test
  void ofAws_readsCloudWatchsSpellingAndDefaultsToMissing() {
    assertThat(TreatMissingData.ofAws("notBreaching")).isEqualTo(TreatMissingData.NOT_BREACHING);
    assertThat(TreatMissingData.ofAws(null)).isEqualTo(TreatMissingData.MISSING);
    assertThat(TreatMissingData.SCALE_IN_DEPLOYED.awsName()).isEqualTo("notBreaching");
    assertThatThrownBy(() -> TreatMissingData.ofAws("NOT_BREACHING"))
        .hasMessageContaining("missing, notBreaching, breaching, ignore");
  }

  private static void check(double[] range, int m, TreatMissingData t, String expected) {
    if (expected.equals("keep")) {
      for (AlarmState current : AlarmState.values()) {
        assertThat(AlarmEvaluation.evaluate(range, 3, m, v -> v > THRESHOLD, t, current))
            .as("%s from %s", t, current)
            .isEqualTo(current);
      }
      return;
    }
    for (AlarmState current : AlarmState.values()) {
      assertThat(AlarmEvaluation.evaluate(range, 3, m, v -> v > THRESHOLD, t, current))
          .as("%s from %s", t, current)
          .isEqualTo(AlarmState.valueOf(expected));
    }
  }

  private static double[] parse(String points) {
    double[] out = new double[points.length()];
    for (int i = 0; i < out.length; i++) {
      out[i] =
          switch (points.charAt(i)) {
            case '0' -> THRESHOLD - 1;
            case 'X' -> THRESHOLD + 1;
            case '-' -> Double.NaN;
            default -> throw new IllegalArgumentException(points);
          };
    }
    return out;
  }
}
