package dev.speechscale.server;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** The 44-byte canonical WAV header for 16-bit mono PCM. */
final class WavHeader {
  static final int BYTES = 44;

  /** The placeholder size a streaming header carries for the RIFF and data chunk sizes. */
  static final int UNKNOWN_SIZE = 0xFFFFFFFF;

  private WavHeader() {}

  /** A header for a stream of unknown length: both sizes are 0xFFFFFFFF. */
  static byte[] streaming(int sampleRateHz) {
    return build(sampleRateHz, UNKNOWN_SIZE, UNKNOWN_SIZE);
  }

  /** A header with the real sizes for {@code dataBytes} bytes of PCM. */
  static byte[] sized(int sampleRateHz, int dataBytes) {
    return build(sampleRateHz, 36 + dataBytes, dataBytes);
  }

  private static byte[] build(int sampleRateHz, int riffSize, int dataSize) {
    ByteBuffer b = ByteBuffer.allocate(BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {'R', 'I', 'F', 'F'}).putInt(riffSize).put(new byte[] {'W', 'A', 'V', 'E'});
    b.put(new byte[] {'f', 'm', 't', ' '}).putInt(16);
    b.putShort((short) 1).putShort((short) 1); // PCM, mono
    b.putInt(sampleRateHz).putInt(sampleRateHz * 2); // byte rate
    b.putShort((short) 2).putShort((short) 16); // block align, bits per sample
    b.put(new byte[] {'d', 'a', 't', 'a'}).putInt(dataSize);
    return b.array();
  }
}
