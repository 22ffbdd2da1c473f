package dev.speechscale.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One pass over a CSV trace: the header chooses the format, every later line is checked, and the
 * bad ones are collected (file, line number, value, rule) rather than skipped or repaired.
 */
final class TraceCheck {
  static final String RATES_HEADER = "time_s,rps";
  static final String ARRIVALS_HEADER = "arrival_s";

  private final String fileName;
  private final List<String> errors = new ArrayList<>();
  private int errorCount;
  private int lineNumber;
  private boolean headerRead;
  private boolean arrivals;
  private int rows;
  private double lastTime = Double.NaN;
  private double lastRate;
  private double firstTime = Double.NaN;
  private double peak;
  private double expected;
  private long currentSecond = -1;
  private long inCurrentSecond;

  TraceCheck(String fileName) {
    this.fileName = fileName;
  }

  void accept(String raw) {
    lineNumber++;
    String line = raw.strip();
    if (!headerRead) {
      header(line);
      return;
    }
    if (line.isEmpty() || line.startsWith("#")) {
      return;
    }
    if (arrivals) {
      arrival(line);
    } else {
      rate(line);
    }
  }

  private void header(String line) {
    String normal = line.replace(" ", "").toLowerCase(Locale.ROOT);
    if (normal.equals(RATES_HEADER)) {
      arrivals = false;
      headerRead = true;
    } else if (normal.equals(ARRIVALS_HEADER)) {
      arrivals = true;
      headerRead = true;
    } else {
      throw new SimulatorException(
          fileName
              + " line 1: header '"
              + line
              + "' is neither '"
              + RATES_HEADER
              + "' (rate intervals) nor '"
              + ARRIVALS_HEADER
              + "' (one arrival time per line); put one of them on the first line");
    }
  }

  private void arrival(String line) {
    double t = number(line, "arrival_s");
    if (Double.isNaN(t)) {
      return;
    }
    if (t < 0) {
      bad(line, "an arrival time must be at least 0 s");
      return;
    }
    if (!Double.isNaN(lastTime) && t < lastTime) {
      bad(line, "arrival times must not decrease (the previous one was " + lastTime + " s)");
      return;
    }
    lastTime = t;
    rows++;
    expected++;
    long second = (long) Math.floor(t);
    if (second != currentSecond) {
      currentSecond = second;
      inCurrentSecond = 0;
    }
    inCurrentSecond++;
    peak = Math.max(peak, inCurrentSecond);
  }

  private void rate(String line) {
    int comma = line.indexOf(',');
    if (comma < 0 || line.indexOf(',', comma + 1) >= 0) {
      bad(line, "a row is 'time_s,rps': two numbers separated by one comma");
      return;
    }
    double t = number(line.substring(0, comma).strip(), "time_s");
    double r = number(line.substring(comma + 1).strip(), "rps");
    if (Double.isNaN(t) || Double.isNaN(r)) {
      return;
    }
    if (t < 0) {
      bad(line, "time_s must be at least 0");
      return;
    }
    if (r < 0) {
      bad(line, "rps must be at least 0");
      return;
    }
    if (!Double.isNaN(lastTime) && !(t > lastTime)) {
      bad(line, "time_s must increase (the previous row starts at " + lastTime + " s)");
      return;
    }
    if (!Double.isNaN(lastTime)) {
      expected += lastRate * (t - lastTime);
      peak = Math.max(peak, lastRate);
    } else {
      firstTime = t;
    }
    lastTime = t;
    lastRate = r;
    rows++;
  }

  private double number(String text, String column) {
    try {
      double v = Double.parseDouble(text);
      if (Double.isNaN(v) || Double.isInfinite(v)) {
        bad(text, column + " must be a finite number");
        return Double.NaN;
      }
      return v;
    } catch (NumberFormatException e) {
      bad(text, column + " is not a number");
      return Double.NaN;
    }
  }

  private void bad(String value, String rule) {
    errorCount++;
    if (errors.size() < Traffic.errorsShown()) {
      errors.add(fileName + " line " + lineNumber + ": '" + value + "': " + rule);
    }
  }

  void finish() {
    if (!headerRead) {
      throw new SimulatorException(
          fileName
              + " is empty; a trace starts with the header '"
              + RATES_HEADER
              + "' or '"
              + ARRIVALS_HEADER
              + "'");
    }
    if (errorCount > 0) {
      String more =
          errorCount > errors.size()
              ? "\n  ... and " + (errorCount - errors.size()) + " more bad lines"
              : "";
      throw new SimulatorException(
          fileName
              + " has "
              + errorCount
              + (errorCount == 1 ? " bad line" : " bad lines")
              + "; fix "
              + (errorCount == 1 ? "it" : "them")
              + " (nothing is guessed):\n  "
              + String.join("\n  ", errors)
              + more);
    }
    if (arrivals ? rows == 0 : rows < 2) {
      throw new SimulatorException(
          fileName
              + (arrivals
                  ? " has no arrivals after its header; add one arrival time per line"
                  : " has "
                      + rows
                      + " row(s) after its header; a rate trace needs at least two (the last"
                      + " row's time_s ends the trace)"));
    }
  }

  boolean arrivalFormat() {
    return arrivals;
  }

  long durationSeconds() {
    // an arrival at exactly t = n s falls in second n, which must be simulated
    return arrivals ? (long) Math.floor(lastTime) + 1 : Math.max(1, (long) Math.ceil(lastTime));
  }

  double peakPerSecond() {
    return peak;
  }

  double expectedArrivals() {
    return expected;
  }

  String describe() {
    return arrivals
        ? String.format(
            Locale.ROOT, "%s: %d recorded arrivals over %.0f s", fileName, rows, lastTime)
        : String.format(
            Locale.ROOT,
            "%s: %d rate intervals from %.0f s to %.0f s, peak %s req/s",
            fileName,
            rows - 1,
            firstTime,
            lastTime,
            Traffic.rate(peak));
  }
}
