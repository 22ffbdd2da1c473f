package dev.speechscale.loadgen;

import org.jspecify.annotations.Nullable;

/**
 * Counts audio bytes of a response body and times the first one.
 *
 * <p>For a WAV body the RIFF header is not audio: the container glues its 44-byte header (sizes
 * 0xFFFFFFFF) to the first PCM chunk, so timing the first body byte would time the header. The
 * meter walks the RIFF chunks ({@code RIFF....WAVE}, then {@code fmt }, optional others, then
 * {@code data}) and counts from the first byte of the {@code data} payload — 44 bytes for the
 * container's header, more when a writer adds chunks. A body that does not start with {@code RIFF}
 * is all audio (raw PCM, MP3, or a trivial benchmark body).
 */
final class AudioMeter implements SocketInput.BodySink {
  /** A header longer than this without a {@code data} chunk is malformed. */
  static final int MAX_HEADER_BYTES = 4096;

  private static final byte[] NO_HEADER = new byte[0];

  private final byte[] header;
  private int headerLength;
  private boolean inAudio;
  private long audioBytes;
  private long firstAudioNanos = -1;
  private @Nullable String problem;
  private long wavByteRate = -1;
  private final byte[] lead = new byte[4];
  private int leadLength;

  /**
   * @param wav the response declared a WAV body: look for a RIFF header before counting audio
   */
  AudioMeter(boolean wav) {
    // a body that is not WAV is all audio from its first byte: its header buffer is never read
    this.header = wav ? new byte[MAX_HEADER_BYTES] : NO_HEADER;
    this.inAudio = !wav;
  }

  @Override
  public void accept(byte[] bytes, int offset, int length, long arrivalNanos) {
    if (inAudio) {
      keepLead(bytes, offset, length);
      audio(length, arrivalNanos);
      return;
    }
    if (problem != null) {
      return;
    }
    int take = Math.min(length, header.length - headerLength);
    System.arraycopy(bytes, offset, header, headerLength, take);
    headerLength += take;
    int dataStart = dataStart();
    if (dataStart >= 0) {
      inAudio = true;
      int inHeaderBuffer = headerLength - dataStart;
      audio(inHeaderBuffer + (length - take), arrivalNanos);
    } else if (dataStart == NOT_RIFF) {
      inAudio = true;
      keepLead(header, 0, headerLength);
      keepLead(bytes, offset + take, length - take);
      audio(headerLength + (length - take), arrivalNanos);
    } else if (headerLength == header.length) {
      problem = "the WAV header has no data chunk within " + MAX_HEADER_BYTES + " bytes";
    }
  }

  private void audio(long n, long arrivalNanos) {
    if (n > 0) {
      if (firstAudioNanos < 0) {
        firstAudioNanos = arrivalNanos;
      }
      audioBytes += n;
    }
  }

  private static final int NEED_MORE = -1;
  private static final int NOT_RIFF = -2;

  /** Offset of the data payload in the header buffer, {@link #NEED_MORE} or {@link #NOT_RIFF}. */
  private int dataStart() {
    if (headerLength < 4) {
      return NEED_MORE;
    }
    if (!tagAt(0, "RIFF")) {
      return NOT_RIFF;
    }
    if (headerLength < 12) {
      return NEED_MORE;
    }
    if (!tagAt(8, "WAVE")) {
      return NOT_RIFF;
    }
    int p = 12;
    while (p + 8 <= headerLength) {
      if (tagAt(p, "data")) {
        return p + 8;
      }
      if (tagAt(p, "fmt ") && p + 20 <= headerLength) {
        // fmt payload: format, channels (2 bytes each), sample rate, byte rate (4 bytes each)
        wavByteRate = Integer.toUnsignedLong(le32(p + 16));
      }
      long size = Integer.toUnsignedLong(le32(p + 4));
      long next = p + 8 + size + (size & 1);
      if (next > MAX_HEADER_BYTES) {
        problem = "the WAV chunk at byte " + p + " claims " + size + " bytes before any data chunk";
        return NEED_MORE;
      }
      p = (int) next;
    }
    return NEED_MORE;
  }

  private boolean tagAt(int p, String tag) {
    for (int i = 0; i < 4; i++) {
      if (header[p + i] != tag.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private int le32(int p) {
    return (header[p] & 0xff)
        | (header[p + 1] & 0xff) << 8
        | (header[p + 2] & 0xff) << 16
        | (header[p + 3] & 0xff) << 24;
  }

  /** The first bytes of a body that is all audio (up to 4), for a frame header. */
  private void keepLead(byte[] bytes, int offset, int length) {
    int take = Math.min(length, lead.length - leadLength);
    if (take > 0) {
      System.arraycopy(bytes, offset, lead, leadLength, take);
      leadLength += take;
    }
  }

  long audioBytes() {
    return audioBytes;
  }

  /** The byte rate the WAV header's {@code fmt } chunk declares, or -1 (no WAV, no fmt chunk). */
  long wavByteRate() {
    return wavByteRate;
  }

  /** The first (up to 4) bytes of a body that is all audio, e.g. an MP3 frame header. */
  byte[] leadingBytes() {
    return java.util.Arrays.copyOf(lead, leadLength);
  }

  /** When the first audio byte arrived, or -1. */
  long firstAudioNanos() {
    return firstAudioNanos;
  }

  /** Why the body is not valid audio, or {@code null}. */
  @Nullable String problem() {
    if (problem == null && !inAudio && headerLength > 0) {
      return "the body ended inside its WAV header (" + headerLength + " bytes)";
    }
    return problem;
  }
}
