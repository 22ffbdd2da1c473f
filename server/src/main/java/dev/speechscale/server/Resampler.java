package dev.speechscale.server;

import java.util.Arrays;

/**
 * Streaming downsampler for 16-bit mono PCM: windowed-sinc interpolation with its cutoff at the
 * output Nyquist frequency, so downsampling does not alias. State carries across chunks; {@link
 * #flush()} emits the tail. One instance per stream.
 */
final class Resampler {
  private static final int HALF_TAPS = 16;

  private final double step; // input samples per output sample
  private final double cutoff; // relative to the input Nyquist frequency
  private double[] history = new double[0];
  private long historyStart; // absolute index of history[0]
  private long inputCount;
  private double nextPosition; // absolute input position of the next output sample

  Resampler(int inRateHz, int outRateHz) {
    if (outRateHz > inRateHz || outRateHz <= 0) {
      throw new IllegalArgumentException(
          "output rate " + outRateHz + " Hz must be positive and at most the input " + inRateHz);
    }
    this.step = (double) inRateHz / outRateHz;
    this.cutoff = (double) outRateHz / inRateHz;
  }

  /** Feeds samples and returns the output samples that are now fully determined. */
  short[] process(short[] in, int offset, int length) {
    int keep = history.length;
    double[] grown = Arrays.copyOf(history, keep + length);
    for (int i = 0; i < length; i++) {
      grown[keep + i] = in[offset + i];
    }
    history = grown;
    inputCount += length;
    return emit(inputCount - 1 - reach());
  }

  /** Emits the remaining output, treating the input after the end as silence. */
  short[] flush() {
    return emit(inputCount - 1);
  }

  private short[] emit(long lastUsableCenter) {
    int count = 0;
    short[] out = new short[(int) Math.max(0, (lastUsableCenter - nextPosition) / step + 2)];
    while (nextPosition <= lastUsableCenter && count < out.length) {
      out[count++] = sample(nextPosition);
      nextPosition += step;
    }
    trim();
    return count == out.length ? out : Arrays.copyOf(out, count);
  }

  /** Input samples either side of an output position that the kernel reads. */
  private int reach() {
    return (int) Math.ceil(HALF_TAPS / cutoff);
  }

  private short sample(double position) {
    long center = (long) Math.floor(position);
    double sum = 0;
    double weights = 0;
    int reach = reach();
    for (long i = center - reach + 1; i <= center + reach; i++) {
      double x = position - i;
      double w = cutoff * sinc(cutoff * x) * window(x / reach);
      weights += w;
      if (i >= historyStart && i < historyStart + history.length) {
        sum += w * history[(int) (i - historyStart)];
      }
    }
    double v = weights == 0 ? 0 : sum / weights;
    return (short) Math.clamp(Math.round(v), -32768, 32767);
  }

  private void trim() {
    long firstNeeded = (long) Math.floor(nextPosition) - reach();
    int drop = (int) Math.clamp(firstNeeded - historyStart, 0, history.length);
    if (drop > 0) {
      history = Arrays.copyOfRange(history, drop, history.length);
      historyStart += drop;
    }
  }

  private static double sinc(double x) {
    return x == 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
  }

  /** Blackman window over [-1, 1]. */
  private static double window(double t) {
    if (t <= -1 || t >= 1) {
      return 0;
    }
    double a = Math.PI * (t + 1);
    return 0.42 - 0.5 * Math.cos(a) + 0.08 * Math.cos(2 * a);
  }
}
