package dev.speechscale.server;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;

/**
 * The process environment as native libraries read it ({@code getenv(3)}), set before they
 * initialise, so that the server writes nothing outside {@code /tmp} whichever launcher started it
 * (the image's {@code serve}, {@code bin/speech-server}, a supervisor, a test's child JVM).
 *
 * <ul>
 *   <li>{@link #ORT_DISABLE_TELEMETRY}: ONNX Runtime 1.29's Linux build has 1DS telemetry on by
 *       default; it writes a device id and an offline event store under {@code
 *       ~/.cache/Microsoft/DeveloperTools/.onnxruntime} and uploads when a CA bundle is readable.
 *       The variable is read once, when the first {@code OrtEnvironment} is created, and then
 *       nothing is created or sent ({@code OrtEnvironment.setTelemetry(false)} comes too late: the
 *       environment has already started it).
 *   <li>{@link #PULSE_SERVER}: espeak-ng 1.51's {@code espeak_Initialize} creates an audio device
 *       through pcaudiolib even for synchronous (no playback) output, and libpulse then makes
 *       {@code ~/.config/pulse} looking for a sound server. The server never plays audio; an
 *       explicit server address that cannot exist stops libpulse from looking (and from
 *       autospawning one), so nothing is written.
 * </ul>
 *
 * <p>{@code setenv} is called on the thread that is about to initialise the library, before it
 * does; glibc keeps every earlier environment array alive, so a concurrent {@code getenv} on
 * another thread never reads freed memory.
 */
final class NativeEnvironment {
  static final String ORT_DISABLE_TELEMETRY = "ORT_DISABLE_TELEMETRY";
  static final String PULSE_SERVER = "PULSE_SERVER";

  /** A PulseAudio address that names no server: the path's parent is not a directory. */
  static final String NO_SOUND_SERVER = "unix:/dev/null/speech-server-plays-no-audio";

  private static final MethodHandle SETENV =
      NativeLibraries.LINKER.downcallHandle(
          NativeLibraries.LINKER
              .defaultLookup()
              .find("setenv")
              .orElseThrow(() -> new EngineException("setenv not found in the C library")),
          FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));

  private NativeEnvironment() {}

  /** Turns ONNX Runtime's telemetry off; call before the first {@code OrtEnvironment}. */
  static void disableOnnxRuntimeTelemetry() {
    set(ORT_DISABLE_TELEMETRY, "1");
  }

  /** Keeps libpulse from looking for a sound server; call before {@code espeak_Initialize}. */
  static void disableSoundServer() {
    set(PULSE_SERVER, NO_SOUND_SERVER);
  }

  /** {@code setenv(name, value, 1)}: what native code reads from now on. */
  static void set(String name, String value) {
    try (Arena arena = Arena.ofConfined()) {
      int rc = (int) SETENV.invokeExact(arena.allocateFrom(name), arena.allocateFrom(value), 1);
      if (rc != 0) {
        throw new EngineException(
            "setenv("
                + name
                + "="
                + value
                + ") failed ("
                + rc
                + "); set it in the environment"
                + " that starts the server instead");
      }
    } catch (Throwable t) {
      throw NativeLibraries.rethrow("setenv(" + name + ")", t);
    }
  }
}
