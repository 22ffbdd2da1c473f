package dev.speechscale.server;

/** 16-bit little-endian mono PCM helpers. */
final class Pcm {
  private Pcm() {}

  /** Float samples in [-1, 1] to int16, clipping anything outside instead of wrapping. */
  static void toInt16(float[] in, int inOffset, short[] out, int outOffset, int length) {
    for (int i = 0; i < length; i++) {
      float v = in[inOffset + i];
      int s = Float.isNaN(v) ? 0 : Math.round(v * 32767f);
      out[outOffset + i] = (short) Math.clamp(s, -32768, 32767);
    }
  }

  /** Samples as little-endian bytes. */
  static byte[] toBytes(short[] samples, int offset, int length) {
    byte[] bytes = new byte[length * 2];
    for (int i = 0; i < length; i++) {
      short s = samples[offset + i];
      bytes[2 * i] = (byte) s;
      bytes[2 * i + 1] = (byte) (s >> 8);
    }
    return bytes;
  }

  /** Root-mean-square amplitude of little-endian samples, 0 for none. */
  static double rms(byte[] pcm, int offset, int length) {
    int n = length / 2;
    if (n == 0) {
      return 0;
    }
    double sum = 0;
    for (int i = 0; i < n; i++) {
      int s = (short) ((pcm[offset + 2 * i] & 0xff) | (pcm[offset + 2 * i + 1] << 8));
      sum += (double) s * s;
    }
    return Math.sqrt(sum / n);
  }
}
