package dev.speechscale.server;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
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
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * espeak-ng 1.51 through FFM ({@code libespeak-ng.so.1}).
 *
 * <p>espeak-ng keeps its state in globals and is not reentrant, so the process has exactly one
 * instance and every call runs on its one platform thread ({@link #onEngineThread}); callers block
 * on a future. This is the "one engine thread per process" rule for both the espeak engine and
 * Kokoro's IPA front end.
 */
final class Espeak {
  private static final int AUDIO_OUTPUT_SYNCHRONOUS = 2;
  private static final int INITIALIZE_DONT_EXIT = 0x8000;
  private static final int CHARS_UTF8 = 1;
  private static final int POS_CHARACTER = 1;
  private static final int PARAM_RATE = 1;
  private static final int PHONEMES_IPA = 0x02;
  private static final int BUFFER_MS = 60;
  static final int RATE_NORMAL_WPM = 175;
  static final int RATE_MIN_WPM = 80;
  static final int RATE_MAX_WPM = 450;

  /**
   * espeak-ng's language-switch flags: a word it reads in another language is wrapped as {@code
   * (en)…(ja)}. Kokoro's front end removes them (phonemizer's {@code remove-flags}); kept, a
   * Japanese voice would say the letters "e n".
   */
  private static final Pattern LANGUAGE_FLAG = Pattern.compile("\\([a-z]{2,3}(?:-[a-z0-9]+)*\\)");

  private static @Nullable Espeak instance; // guarded by Espeak.class; null until first use

  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          r -> Thread.ofPlatform().name("espeak-engine").daemon(true).unstarted(r));
  private final MethodHandle setVoiceByName;
  private final MethodHandle setParameter;
  private final MethodHandle synth;
  private final MethodHandle textToPhonemes;
  private final int sampleRateHz;

  /** Language code → the identifier of the voice espeak-ng ranks first for it. */
  private final Map<String, String> voiceForLanguage;

  // engine thread only; the sink is null between calls (a late callback then aborts)
  private @Nullable PcmSink currentSink;
  private short[] buffer = new short[4096];
  private @Nullable Throwable callbackFailure;

  private Espeak() {
    NativeEnvironment.disableSoundServer();
    SymbolLookup lib = NativeLibraries.load("libespeak-ng.so.1", "libespeak-ng1");
    MethodHandle initialize =
        NativeLibraries.function(
            lib,
            "espeak_Initialize",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    MethodHandle setCallback =
        NativeLibraries.function(
            lib, "espeak_SetSynthCallback", FunctionDescriptor.ofVoid(ADDRESS));
    MethodHandle listVoices =
        NativeLibraries.function(lib, "espeak_ListVoices", FunctionDescriptor.of(ADDRESS, ADDRESS));
    setVoiceByName =
        NativeLibraries.function(
            lib, "espeak_SetVoiceByName", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    setParameter =
        NativeLibraries.function(
            lib,
            "espeak_SetParameter",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    synth =
        NativeLibraries.function(
            lib,
            "espeak_Synth",
            FunctionDescriptor.of(
                JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS,
                ADDRESS));
    textToPhonemes =
        NativeLibraries.function(
            lib,
            "espeak_TextToPhonemes",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, JAVA_INT));
    Map<String, String> langs = new LinkedHashMap<>();
    this.sampleRateHz =
        onEngineThread(() -> {
          int rate =
              (int)
                  initialize.invokeExact(
                      AUDIO_OUTPUT_SYNCHRONOUS,
                      BUFFER_MS,
                      MemorySegment.NULL,
                      INITIALIZE_DONT_EXIT);
          if (rate <= 0) {
            throw new EngineException(
                "espeak_Initialize failed ("
                    + rate
                    + "); the voice data may be missing: "
                    + NativeLibraries.installAdvice("espeak-ng-data", System.getenv()));
          }
          setCallback.invokeExact(callbackStub(this));
          langs.putAll(readLanguages((MemorySegment) listVoices.invokeExact(MemorySegment.NULL)));
          return rate;
        });
    this.voiceForLanguage = Collections.unmodifiableMap(langs);
  }

  /** The process's one espeak-ng, initialized on first use. */
  static synchronized Espeak get() {
    if (instance == null) {
      instance = new Espeak();
    }
    return instance;
  }

  int sampleRateHz() {
    return sampleRateHz;
  }

  /**
   * Language codes of the installed voices ({@code en-us}, {@code en-gb}, {@code de}, ...), every
   * one of them selectable by {@link #synthesize} and {@link #toIpa}.
   */
  List<String> languages() {
    return List.copyOf(voiceForLanguage.keySet());
  }

  /**
   * The voice file espeak-ng speaks {@code language} with ({@code en-gb} → {@code gmw/en}), or
   * empty when no installed voice lists that language.
   */
  Optional<String> voiceFor(String language) {
    return Optional.ofNullable(voiceForLanguage.get(language.toLowerCase(Locale.ROOT)));
  }

  /** Speaks {@code text} with a voice chosen by language code, delivering PCM to {@code sink}. */
  void synthesize(String text, String language, int rateWpm, PcmSink sink) {
    runOnEngineThread(() -> {
      selectVoice(language);
      int unusedRate = (int) setParameter.invokeExact(PARAM_RATE, rateWpm, 0);
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment utf8 = arena.allocateFrom(text);
        currentSink = sink;
        callbackFailure = null;
        int err =
            (int)
                synth.invokeExact(
                    utf8,
                    utf8.byteSize(),
                    0,
                    POS_CHARACTER,
                    0,
                    CHARS_UTF8,
                    MemorySegment.NULL,
                    MemorySegment.NULL);
        if (callbackFailure != null) {
          throw new EngineException("espeak audio callback failed", callbackFailure);
        }
        if (err != 0) {
          throw new EngineException("espeak_Synth returned error " + err);
        }
      } finally {
        currentSink = null;
      }
    });
  }

  /**
   * Phonemizes {@code text} to IPA, clause by clause, joined with spaces, without language-switch
   * flags.
   */
  String toIpa(String text, String language) {
    return onEngineThread(() -> {
      selectVoice(language);
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment utf8 = arena.allocateFrom(text);
        MemorySegment cursor = arena.allocate(ADDRESS);
        cursor.set(ADDRESS, 0, utf8);
        StringBuilder ipa = new StringBuilder();
        while (!cursor.get(ADDRESS, 0).equals(MemorySegment.NULL)) {
          MemorySegment clause =
              (MemorySegment) textToPhonemes.invokeExact(cursor, CHARS_UTF8, PHONEMES_IPA);
          if (clause.equals(MemorySegment.NULL)) {
            break;
          }
          String part =
              LANGUAGE_FLAG
                  .matcher(clause.reinterpret(Integer.MAX_VALUE).getString(0))
                  .replaceAll("")
                  .strip();
          if (!part.isEmpty()) {
            if (!ipa.isEmpty()) {
              ipa.append(' ');
            }
            ipa.append(part);
          }
        }
        return ipa.toString();
      }
    });
  }

  /**
   * Selects the voice espeak-ng ranks first for {@code language}, by its file identifier.
   * espeak_SetVoiceByName matches voice names and file names, not language codes: in 1.51 the
   * British English voice is the file {@code gmw/en}, so the name {@code en-gb} matches nothing
   * (error 2), while {@code en-us} works only because its file happens to be {@code gmw/en-US}.
   */
  private void selectVoice(String language) throws Throwable {
    String identifier =
        voiceFor(language)
            .orElseThrow(() ->
                new EngineException(
                    "espeak-ng lists no voice for language '"
                        + language
                        + "'; installed languages: "
                        + voiceForLanguage.keySet()
                        + "; pick one of them or install the voice data (espeak-ng-data)"));
    try (Arena arena = Arena.ofConfined()) {
      int err = (int) setVoiceByName.invokeExact(arena.allocateFrom(identifier));
      if (err != 0) {
        throw new EngineException(
            "espeak-ng cannot load voice '"
                + identifier
                + "' for language '"
                + language
                + "' (error "
                + err
                + "); check the espeak-ng-data installation");
      }
    }
  }

  private interface NativeCall<T> {
    T call() throws Throwable;
  }

  private interface NativeAction {
    void run() throws Throwable;
  }

  private void runOnEngineThread(NativeAction body) {
    onEngineThread(() -> {
      body.run();
      return true; // no result: a value only because Future<T> needs one
    });
  }

  private <T> T onEngineThread(NativeCall<T> body) {
    Callable<T> task =
        () -> {
          try {
            return body.call();
          } catch (Throwable t) {
            throw NativeLibraries.rethrow("espeak", t);
          }
        };
    Future<T> future = thread.submit(task);
    try {
      return future.get();
    } catch (InterruptedException e) {
      // the native call cannot be interrupted; it stops at the sink's next chunk instead
      Thread.currentThread().interrupt();
      throw new EngineException("interrupted while waiting for espeak", e);
    } catch (ExecutionException e) {
      // a task's ExecutionException always carries what the task threw
      throw NativeLibraries.rethrow("espeak", Objects.requireNonNullElse(e.getCause(), e));
    }
  }

  private static MemorySegment callbackStub(Espeak owner) throws ReflectiveOperationException {
    MethodHandle target =
        MethodHandles.lookup()
            .findVirtual(
                Espeak.class,
                "onAudio",
                MethodType.methodType(
                    int.class, MemorySegment.class, int.class, MemorySegment.class))
            .bindTo(owner);
    return NativeLibraries.LINKER.upcallStub(
        target, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS), Arena.global());
  }

  /** The synth callback: 0 continues, 1 aborts. Runs on the engine thread. */
  @SuppressWarnings("unused") // called from native code
  private int onAudio(MemorySegment wav, int numSamples, MemorySegment events) {
    PcmSink sink = currentSink;
    if (sink == null) {
      return 1;
    }
    if (numSamples <= 0 || wav.equals(MemorySegment.NULL)) {
      return 0;
    }
    try {
      if (buffer.length < numSamples) {
        buffer = new short[numSamples];
      }
      MemorySegment.copy(
          wav.reinterpret((long) numSamples * Short.BYTES), JAVA_SHORT, 0, buffer, 0, numSamples);
      return sink.accept(buffer, 0, numSamples) ? 0 : 1;
    } catch (RuntimeException | Error e) {
      callbackFailure = e;
      return 1;
    }
  }

  /**
   * Reads a NULL-terminated {@code espeak_VOICE*} array into language code → voice identifier,
   * keeping for each language the voice with espeak-ng's best (lowest) priority for it, the first
   * listed on a tie.
   */
  private static Map<String, String> readLanguages(MemorySegment voices) {
    Map<String, String> identifiers = new LinkedHashMap<>();
    Map<String, Integer> priorities = new HashMap<>();
    MemorySegment array = voices.reinterpret(Long.MAX_VALUE);
    for (long i = 0; ; i++) {
      MemorySegment voice = array.get(ADDRESS, i * ADDRESS.byteSize());
      if (voice.equals(MemorySegment.NULL)) {
        break;
      }
      // espeak_VOICE: name, languages, identifier, ...; languages = (priority byte, C string)*, 0
      MemorySegment fields = voice.reinterpret(24);
      String identifier = fields.get(ADDRESS, 16).reinterpret(4096).getString(0);
      MemorySegment langs = fields.get(ADDRESS, 8).reinterpret(4096);
      long offset = 0;
      byte priority;
      while ((priority = langs.get(JAVA_BYTE, offset)) != 0) {
        String code = langs.getString(offset + 1, StandardCharsets.UTF_8);
        if (!code.isEmpty()) {
          String key = code.toLowerCase(Locale.ROOT);
          Integer best = priorities.get(key);
          if (best == null || priority < best) {
            priorities.put(key, (int) priority);
            identifiers.put(key, identifier);
          }
        }
        offset += 1 + code.getBytes(StandardCharsets.UTF_8).length + 1;
      }
    }
    return identifiers;
  }
}
