package dev.speechscale.scaling;

/** The CloudWatch statistics a scaling alarm evaluates over one period. */
public enum MetricStatistic {
  MAXIMUM("Maximum"),
  AVERAGE("Average"),
  SUM("Sum");

  private final String awsName;

  MetricStatistic(String awsName) {
    this.awsName = awsName;
  }

  /** CloudWatch's spelling, e.g. {@code Maximum}. */
  public String awsName() {
    return awsName;
  }
}
