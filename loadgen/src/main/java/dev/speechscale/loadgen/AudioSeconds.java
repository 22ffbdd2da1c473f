package dev.speechscale.loadgen;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Seconds of audio in a response body: audio bytes over the byte rate its format declares. WAV: the
 * {@code fmt } chunk's byte rate (what {@link AudioMeter} walked past); raw PCM ({@code
 * audio/L16;rate=R;channels=C}): 2·R·C bytes per second; MP3: the first frame header's bit rate (a
 * constant-bit-rate stream, as the container sends). Anything else, or a header that does not say,
 * is unknown (-1): a length is never guessed.
 */
final class AudioSeconds {
  private AudioSeconds() {}

  /** MPEG-1 Layer III bit rates, kbit/s, by the header's 4-bit index (0 = free, 15 = bad). */
  private static final int[] MPEG1_L3_KBPS = {
    0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0
  };

  /** MPEG-2 and 2.5 Layer III bit rates, kbit/s. */
  private static final int[] MPEG2_L3_KBPS = {
    0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0
  };

  /**
   * The body's audio length.
   *
   * @param contentType the response's Content-Type, or {@code null}
   * @param meter the meter that read the body
   * @return seconds, or -1 when the format's byte rate is unknown
   */
  static double of(@Nullable String contentType, AudioMeter meter) {
    long rate = bytesPerSecond(contentType, meter.wavByteRate(), meter.leadingBytes());
    return rate <= 0 ? -1 : meter.audioBytes() / (double) rate;
  }

  /** Bytes per second of audio, or -1 when unknown. */
  static long bytesPerSecond(@Nullable String contentType, long wavByteRate, byte[] leadingBytes) {
    String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
    if (type.contains("wav")) {
      return wavByteRate;
    }
    if (type.startsWith("audio/l16")) {
      long rate = parameter(type, "rate");
      long channels = parameter(type, "channels");
      return rate <= 0 ? -1 : 2 * rate * (channels <= 0 ? 1 : channels);
    }
    if (type.startsWith("audio/mpeg")) {
      return mp3BytesPerSecond(leadingBytes);
    }
    return -1;
  }

  /** A {@code ;name=value} parameter as a positive integer, or -1. */
  private static long parameter(String type, String name) {
    for (String part : type.split(";")) {
      String p = part.strip();
      if (p.startsWith(name + "=")) {
        try {
          return Long.parseLong(p.substring(name.length() + 1).strip());
        } catch (NumberFormatException e) {
          return -1;
        }
      }
    }
    return -1;
  }

  /** The byte rate of a Layer III frame header's bit rate, or -1 when it is not one. */
  static long mp3BytesPerSecond(byte[] h) {
    if (h.length < 3 || (h[0] & 0xff) != 0xff || (h[1] & 0xe0) != 0xe0) {
      return -1;
    }
    int version = (h[1] >> 3) & 3; // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5, 1 reserved
    int layer = (h[1] >> 1) & 3; // 1 = Layer III
    if (version == 1 || layer != 1) {
      return -1;
    }
    int kbps = (version == 3 ? MPEG1_L3_KBPS : MPEG2_L3_KBPS)[(h[2] >> 4) & 15];
    return kbps == 0 ? -1 : kbps * 1000L / 8;
  }
}
