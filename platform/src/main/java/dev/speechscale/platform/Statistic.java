package dev.speechscale.platform;

/** CloudWatch statistics the chain reads. */
public enum Statistic {
  AVERAGE,
  MAXIMUM,
  MINIMUM,
  SUM,
  SAMPLE_COUNT,
  P95
}
