package dev.speechscale.server;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Streaming MP3 (48 kbps mono) through the system LAME library ({@code libmp3lame.so.0}, Debian
 * {@code libmp3lame0}), as the published container's {@code lameenc}. One encoder per stream:
 * {@link #encode} may return nothing while LAME fills a frame, and {@link #flush} returns real
 * audio that must be sent before the stream ends.
 */
final class Mp3Encoder implements AutoCloseable {
  static final String SONAME = "libmp3lame.so.0";
  static final String PACKAGE = "libmp3lame0";
  private static final int MONO = 3;
  private static final int BITRATE_KBPS = 48;
  private static final int QUALITY = 2;

  /** The loaded library, or empty when LAME is not installed (mp3 requests then get a 400). */
  static final Optional<Lame> LAME = NativeLibraries.tryLoad(SONAME).map(Lame::new);

  private final Lame lame;
  private final Arena arena = Arena.ofShared();
  private final MemorySegment handle;
  private MemorySegment pcm = MemorySegment.NULL;
  private MemorySegment out = MemorySegment.NULL;
  private boolean flushed;

  Mp3Encoder(int sampleRateHz) {
    this.lame =
        LAME.orElseThrow(
            () -> new EngineException("mp3 needs " + SONAME + "; apt-get install -y " + PACKAGE));
    try {
      handle = (MemorySegment) lame.init.invokeExact();
      int r = 0;
      r |= (int) lame.setInSampleRate.invokeExact(handle, sampleRateHz);
      r |= (int) lame.setOutSampleRate.invokeExact(handle, sampleRateHz);
      r |= (int) lame.setNumChannels.invokeExact(handle, 1);
      r |= (int) lame.setMode.invokeExact(handle, MONO);
      r |= (int) lame.setBrate.invokeExact(handle, BITRATE_KBPS);
      r |= (int) lame.setQuality.invokeExact(handle, QUALITY);
      r |= (int) lame.initParams.invokeExact(handle);
      if (r != 0) {
        throw new EngineException("LAME rejected its parameters at " + sampleRateHz + " Hz");
      }
    } catch (Throwable t) {
      throw NativeLibraries.rethrow("LAME init", t);
    }
  }

  /** Encodes samples; may return an empty array while LAME buffers a frame. */
  byte[] encode(short[] samples, int offset, int length) {
    if (flushed) {
      throw new IllegalStateException("encode after flush: an Mp3Encoder encodes one stream");
    }
    if (length == 0) {
      return new byte[0];
    }
    ensureCapacity(length);
    MemorySegment.copy(samples, offset, pcm, JAVA_SHORT, 0, length);
    try {
      int n =
          (int) lame.encodeBuffer.invokeExact(handle, pcm, pcm, length, out, (int) out.byteSize());
      return bytes(n);
    } catch (Throwable t) {
      throw NativeLibraries.rethrow("lame_encode_buffer", t);
    }
  }

  /** Emits LAME's remaining frames (real audio); call once, at the end. */
  byte[] flush() {
    if (flushed) {
      return new byte[0];
    }
    flushed = true;
    ensureCapacity(1152);
    try {
      return bytes((int) lame.encodeFlush.invokeExact(handle, out, (int) out.byteSize()));
    } catch (Throwable t) {
      throw NativeLibraries.rethrow("lame_encode_flush", t);
    }
  }

  private void ensureCapacity(int samples) {
    if (pcm.byteSize() < (long) samples * Short.BYTES) {
      pcm = arena.allocate((long) samples * Short.BYTES);
    }
    long worst = (long) (1.25 * samples) + 7200; // LAME's documented worst case
    if (out.byteSize() < worst) {
      out = arena.allocate(worst);
    }
  }

  private byte[] bytes(int n) {
    if (n < 0) {
      throw new EngineException("LAME encode failed with code " + n);
    }
    return out.asSlice(0, n).toArray(JAVA_BYTE);
  }

  @Override
  public void close() {
    try {
      int unused = (int) lame.close.invokeExact(handle);
    } catch (Throwable t) {
      throw NativeLibraries.rethrow("lame_close", t);
    } finally {
      arena.close();
    }
  }

  /** Function handles of libmp3lame. */
  static final class Lame {
    final MethodHandle init;
    final MethodHandle setInSampleRate;
    final MethodHandle setOutSampleRate;
    final MethodHandle setNumChannels;
    final MethodHandle setMode;
    final MethodHandle setBrate;
    final MethodHandle setQuality;
    final MethodHandle initParams;
    final MethodHandle encodeBuffer;
    final MethodHandle encodeFlush;
    final MethodHandle close;

    Lame(SymbolLookup lib) {
      FunctionDescriptor setter = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT);
      init = NativeLibraries.function(lib, "lame_init", FunctionDescriptor.of(ADDRESS));
      setInSampleRate = NativeLibraries.function(lib, "lame_set_in_samplerate", setter);
      setOutSampleRate = NativeLibraries.function(lib, "lame_set_out_samplerate", setter);
      setNumChannels = NativeLibraries.function(lib, "lame_set_num_channels", setter);
      setMode = NativeLibraries.function(lib, "lame_set_mode", setter);
      setBrate = NativeLibraries.function(lib, "lame_set_brate", setter);
      setQuality = NativeLibraries.function(lib, "lame_set_quality", setter);
      initParams =
          NativeLibraries.function(
              lib, "lame_init_params", FunctionDescriptor.of(JAVA_INT, ADDRESS));
      encodeBuffer =
          NativeLibraries.function(
              lib,
              "lame_encode_buffer",
              FunctionDescriptor.of(
                  JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT));
      encodeFlush =
          NativeLibraries.function(
              lib,
              "lame_encode_flush",
              FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
      close = NativeLibraries.function(lib, "lame_close", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    }
  }
}
