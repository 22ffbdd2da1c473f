package dev.speechscale.server;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Flite 2.2 through FFM: the Debian {@code libflite1} libraries, voice {@code cmu_us_slt}.
 *
 * <p>One voice is registered per process and shared by every call (Flite's voice data is read-only
 * during synthesis; per-request state lives in the utterance). Audio streams through Flite's {@code
 * streaming_info} callback, set on each utterance's own features, so chunks reach the sink while
 * the rest of the utterance is still being vocoded. One upcall stub serves every call; the
 * utterance's {@code userdata} carries a call id that selects the sink.
 */
final class FliteEngine implements SpeechEngine {

  static final String VOICE = "slt";
  private static final int CONT = 0;
  private static final int STOP = -1;

  /** Samples Flite accumulates before calling back: 1024 at 16 kHz is 64 ms of audio. */
  private static final int MIN_BUFFER_SAMPLES = 1024;

  // cst_wave: const char *type; int sample_rate; int num_samples; int num_channels; short *samples
  private static final long WAVE_SAMPLE_RATE = 8;
  private static final long WAVE_SAMPLES = 24;
  // cst_audio_streaming_info: int min_buffsize; asc; utt; item; void *userdata
  private static final long ASI_MIN_BUFFSIZE = 0;
  private static final long ASI_CALLBACK = 8;
  private static final long ASI_USERDATA = 32;

  private static final Map<Long, Call> CALLS = new ConcurrentHashMap<>();
  private static final AtomicLong NEXT_ID = new AtomicLong(1);

  private final MethodHandle newUtterance;
  private final MethodHandle setInputText;
  private final MethodHandle newStreamingInfo;
  private final MethodHandle streamingInfoVal;
  private final MethodHandle featSet;
  private final MethodHandle featSetFloat;
  private final MethodHandle doSynth;
  private final MethodHandle deleteUtterance;
  private final MemorySegment uttSynth;
  private final MemorySegment voice;
  private final MemorySegment callback;
  private final int sampleRateHz;
  private final int concurrency;

  FliteEngine(int concurrency) {
    if (concurrency < 1) {
      throw new IllegalArgumentException(
          "flite concurrency (" + concurrency + ") must be at least 1");
    }
    this.concurrency = concurrency;
    SymbolLookup flite = NativeLibraries.load("libflite.so.1", "libflite1");
    SymbolLookup slt = NativeLibraries.load("libflite_cmu_us_slt.so.1", "libflite1");
    try {
      int unused =
          (int)
              NativeLibraries.function(flite, "flite_init", FunctionDescriptor.of(JAVA_INT))
                  .invokeExact();
      voice =
          (MemorySegment)
              NativeLibraries.function(
                      slt, "register_cmu_us_slt", FunctionDescriptor.of(ADDRESS, ADDRESS))
                  .invokeExact(MemorySegment.NULL);
    } catch (Throwable t) {
      throw NativeLibraries.rethrow("flite voice registration", t);
    }
    if (voice.equals(MemorySegment.NULL)) {
      throw new EngineException("register_cmu_us_slt returned no voice; reinstall libflite1");
    }
    newUtterance = NativeLibraries.function(flite, "new_utterance", FunctionDescriptor.of(ADDRESS));
    setInputText =
        NativeLibraries.function(
            flite, "utt_set_input_text", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    newStreamingInfo =
        NativeLibraries.function(flite, "new_audio_streaming_info", FunctionDescriptor.of(ADDRESS));
    streamingInfoVal =
        NativeLibraries.function(
            flite, "audio_streaming_info_val", FunctionDescriptor.of(ADDRESS, ADDRESS));
    featSet =
        NativeLibraries.function(
            flite, "feat_set", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS));
    featSetFloat =
        NativeLibraries.function(
            flite, "flite_feat_set_float", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_FLOAT));
    doSynth =
        NativeLibraries.function(
            flite, "flite_do_synth", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    deleteUtterance =
        NativeLibraries.function(flite, "delete_utterance", FunctionDescriptor.ofVoid(ADDRESS));
    uttSynth = NativeLibraries.symbol(flite, "utt_synth");
    callback = upcallStub();
    sampleRateHz = probeSampleRate();
  }

  private static MemorySegment upcallStub() {
    try {
      MethodHandle target =
          MethodHandles.lookup()
              .findStatic(
                  FliteEngine.class,
                  "onAudio",
                  MethodType.methodType(
                      int.class,
                      MemorySegment.class,
                      int.class,
                      int.class,
                      int.class,
                      MemorySegment.class));
      return NativeLibraries.LINKER.upcallStub(
          target,
          FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS),
          Arena.global());
    } catch (ReflectiveOperationException e) {
      throw new EngineException("cannot create the flite audio callback", e);
    }
  }

  /** Flite does not report a voice's rate without synthesizing; synthesize one word to read it. */
  private int probeSampleRate() {
    int[] rate = {0};
    Call call = new Call((s, o, l) -> true);
    call.rateSink = rate;
    run("a", 1.0, call, uttSynth);
    if (rate[0] <= 0) {
      throw new EngineException("flite produced no audio while probing its sample rate");
    }
    return rate[0];
  }

  @Override
  public String name() {
    return "flite";
  }

  @Override
  public int sampleRateHz() {
    return sampleRateHz;
  }

  @Override
  public List<String> voices() {
    return List.of(VOICE);
  }

  @Override
  public String defaultVoice() {
    return VOICE;
  }

  @Override
  public int maxConcurrency() {
    return concurrency;
  }

  @Override
  public void synthesize(String text, String voiceName, double speed, PcmSink sink) {
    if (!VOICE.equals(voiceName)) {
      throw new EngineException(
          "flite has only the voice '" + VOICE + "', not '" + voiceName + "'");
    }
    synthesizeThrough(uttSynth, text, speed, sink);
  }

  /**
   * {@link #synthesize} with {@code synthFunction} as the utterance function {@code flite_do_synth}
   * runs: {@code utt_synth} in production; a test passes one that fails, to exercise the failure
   * path.
   */
  void synthesizeThrough(MemorySegment synthFunction, String text, double speed, PcmSink sink) {
    Call call = new Call(sink);
    run(text, speed, call, synthFunction);
    if (call.failure != null) {
      throw new EngineException("flite audio callback failed: " + call.failure, call.failure);
    }
  }

  private void run(String text, double speed, Call call, MemorySegment synthFunction) {
    long id = NEXT_ID.getAndIncrement();
    CALLS.put(id, call);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment utt = (MemorySegment) newUtterance.invokeExact();
      int unused = (int) setInputText.invokeExact(utt, arena.allocateFrom(text));
      MemorySegment features = utt.reinterpret(8).get(ADDRESS, 0);
      // flite owns the streaming info from here: deleting the utterance deletes its features
      MemorySegment asi = ((MemorySegment) newStreamingInfo.invokeExact()).reinterpret(40);
      asi.set(JAVA_INT, ASI_MIN_BUFFSIZE, MIN_BUFFER_SAMPLES);
      asi.set(ADDRESS, ASI_CALLBACK, callback);
      asi.set(JAVA_LONG, ASI_USERDATA, id);
      MemorySegment val = (MemorySegment) streamingInfoVal.invokeExact(asi);
      featSet.invokeExact(features, arena.allocateFrom("streaming_info"), val);
      featSetFloat.invokeExact(
          features, arena.allocateFrom("duration_stretch"), (float) (1.0 / speed));
      MemorySegment done = (MemorySegment) doSynth.invokeExact(utt, voice, synthFunction);
      if (done.equals(MemorySegment.NULL)) {
        // flite_do_synth has already deleted the utterance: deleting it again is a double free
        throw new EngineException(
            "flite_do_synth failed for a text of "
                + text.length()
                + " characters (flite freed the utterance itself); the request gets an error, the"
                + " engine stays usable");
      }
      deleteUtterance.invokeExact(done);
    } catch (Throwable t) {
      throw NativeLibraries.rethrow("flite synthesis", t); // an EngineException passes unchanged
    } finally {
      CALLS.remove(id);
    }
  }

  /** The upcall: Flite hands over samples [start, start + size) of the growing wave. */
  @SuppressWarnings("unused") // called from native code
  private static int onAudio(MemorySegment wave, int start, int size, int last, MemorySegment asi) {
    Call call = CALLS.get(asi.reinterpret(40).get(JAVA_LONG, ASI_USERDATA));
    if (call == null || call.stopped) {
      return STOP;
    }
    try {
      MemorySegment w = wave.reinterpret(32);
      if (call.rateSink != null) {
        call.rateSink[0] = w.get(JAVA_INT, WAVE_SAMPLE_RATE);
      }
      if (size <= 0) {
        return CONT;
      }
      MemorySegment samples =
          w.get(ADDRESS, WAVE_SAMPLES).reinterpret((long) (start + size) * Short.BYTES);
      if (call.buffer.length < size) {
        call.buffer = new short[Math.max(size, call.buffer.length * 2)];
      }
      MemorySegment.copy(samples, JAVA_SHORT, (long) start * Short.BYTES, call.buffer, 0, size);
      if (!call.sink.accept(call.buffer, 0, size)) {
        call.stopped = true;
        return STOP;
      }
      return CONT;
    } catch (RuntimeException | Error e) {
      // never unwind into native code: the JVM would crash
      call.failure = e;
      call.stopped = true;
      return STOP;
    }
  }

  @Override
  public void close() {
    // the registered voice and the upcall stub live as long as the process (Arena.global())
  }

  /** Per-call state, reachable from the upcall through the call id. */
  private static final class Call {
    final PcmSink sink;
    short[] buffer = new short[MIN_BUFFER_SAMPLES * 2];
    volatile boolean stopped;
    @Nullable Throwable failure;
    int @Nullable [] rateSink;

    Call(PcmSink sink) {
      this.sink = sink;
    }
  }
}
