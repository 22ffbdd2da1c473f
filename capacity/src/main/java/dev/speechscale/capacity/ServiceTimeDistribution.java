package dev.speechscale.capacity;

import java.util.Arrays;

/**
 * A service-time distribution as a table of equally likely values (the value at probability {@code
 * (i + 0.5)/n} for i in [0, n)), sampled by inverse transform.
 *
 * <p>Built either from a measured histogram's quantiles ({@link #ofQuantiles}) or, when an artifact
 * carries only a mean and a p95, from the lognormal with that mean and p95 ({@link #lognormal}).
 */
public final class ServiceTimeDistribution {
  /** Table size for fitted distributions: fine enough that the tail is represented. */
  static final int TABLE_SIZE = 2048;

  private static final double Z95 = 1.6448536269514722;

  private final double[] valuesSeconds;
  private final double meanSeconds;
  private final double cv;
  private final String origin;

  private ServiceTimeDistribution(double[] sortedValuesSeconds, String origin) {
    this.valuesSeconds = sortedValuesSeconds;
    this.origin = origin;
    double sum = 0;
    for (double v : sortedValuesSeconds) {
      sum += v;
    }
    this.meanSeconds = sum / sortedValuesSeconds.length;
    double squares = 0;
    for (double v : sortedValuesSeconds) {
      squares += (v - meanSeconds) * (v - meanSeconds);
    }
    this.cv = Math.sqrt(squares / sortedValuesSeconds.length) / meanSeconds;
  }

  /**
   * A measured distribution: {@code quantilesSeconds[i]} is the value at probability {@code (i +
   * 0.5)/n}.
   */
  public static ServiceTimeDistribution ofQuantiles(double[] quantilesSeconds, String origin) {
    if (quantilesSeconds.length == 0) {
      throw new CapacityException("a service-time distribution needs at least one value");
    }
    double[] copy = quantilesSeconds.clone();
    Arrays.sort(copy);
    if (!(copy[0] > 0) || Double.isInfinite(copy[copy.length - 1])) {
      throw new CapacityException(
          "service times must be finite and positive, got " + copy[0] + " s at the low end");
    }
    return new ServiceTimeDistribution(copy, origin);
  }

  /**
   * The lognormal with the given mean and p95. When p95 ≤ mean the service is treated as constant;
   * when p95/mean is beyond what a lognormal can express (≈ 3.87) σ is capped at z95, the widest
   * lognormal whose p95 still rises with σ.
   */
  public static ServiceTimeDistribution lognormal(double meanSeconds, double p95Seconds) {
    if (!(meanSeconds > 0) || !(p95Seconds > 0)) {
      throw new CapacityException(
          "S_mean (" + meanSeconds + " s) and S_p95 (" + p95Seconds + " s) must both be positive");
    }
    double[] table = new double[TABLE_SIZE];
    if (p95Seconds <= meanSeconds) {
      Arrays.fill(table, meanSeconds);
      return new ServiceTimeDistribution(table, "constant at S_mean (S_p95 <= S_mean)");
    }
    // p95/mean = exp(z95·σ − σ²/2): the smaller root of σ²/2 − z95·σ + ln(p95/mean) = 0.
    double gap = Math.log(p95Seconds / meanSeconds);
    double disc = Z95 * Z95 - 2.0 * gap;
    double sigma = disc > 0 ? Z95 - Math.sqrt(disc) : Z95;
    double mu = Math.log(meanSeconds) - sigma * sigma / 2.0;
    double sum = 0;
    for (int i = 0; i < TABLE_SIZE; i++) {
      table[i] = Math.exp(mu + sigma * inverseNormal((i + 0.5) / TABLE_SIZE));
      sum += table[i];
    }
    double correction = meanSeconds / (sum / TABLE_SIZE);
    for (int i = 0; i < TABLE_SIZE; i++) {
      table[i] *= correction;
    }
    return new ServiceTimeDistribution(table, "lognormal fitted to S_mean and S_p95");
  }

  /** The same shape with every value multiplied so the mean is {@code targetMeanSeconds}. */
  public ServiceTimeDistribution scaledToMean(double targetMeanSeconds) {
    if (!(targetMeanSeconds > 0)) {
      throw new CapacityException("target mean (" + targetMeanSeconds + " s) must be positive");
    }
    double factor = targetMeanSeconds / meanSeconds;
    double[] scaled = new double[valuesSeconds.length];
    for (int i = 0; i < scaled.length; i++) {
      scaled[i] = valuesSeconds[i] * factor;
    }
    return new ServiceTimeDistribution(scaled, origin + ", scaled to mean " + targetMeanSeconds);
  }

  /** A value for the uniform draw {@code u} in [0, 1). */
  public double sample(double u) {
    int i = (int) (u * valuesSeconds.length);
    return valuesSeconds[Math.min(i, valuesSeconds.length - 1)];
  }

  public double meanSeconds() {
    return meanSeconds;
  }

  /** Coefficient of variation (standard deviation / mean). */
  public double coefficientOfVariation() {
    return cv;
  }

  /** Where the values came from, for a finding's detail. */
  public String origin() {
    return origin;
  }

  /** Acklam's rational approximation of the standard normal quantile (relative error < 1.2e-9). */
  static double inverseNormal(double p) {
    if (!(p > 0 && p < 1)) {
      throw new CapacityException("probability (" + p + ") must be in (0, 1)");
    }
    double[] a = {
      -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
      1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00
    };
    double[] b = {
      -5.447609879822406e+01,
      1.615858368580409e+02,
      -1.556989798598866e+02,
      6.680131188771972e+01,
      -1.328068155288572e+01
    };
    double[] c = {
      -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
      -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00
    };
    double[] d = {
      7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00
    };
    double low = 0.02425;
    if (p < low) {
      double q = Math.sqrt(-2 * Math.log(p));
      return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
          / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    if (p > 1 - low) {
      double q = Math.sqrt(-2 * Math.log(1 - p));
      return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
          / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    double q = p - 0.5;
    double r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5])
        * q
        / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
}
