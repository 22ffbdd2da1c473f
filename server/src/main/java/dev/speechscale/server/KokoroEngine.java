package dev.speechscale.server;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kokoro-82M through ONNX Runtime: text → espeak-ng IPA → token ids (the model's {@code vocab}) →
 * the ONNX model with inputs {@code input_ids} int64[1,T], {@code style} float32[1,256], {@code
 * speed} float32[1] and output {@code waveform} float32[N] at 24 kHz.
 *
 * <p>Inputs longer than the model's 512-token context are cut at word boundaries and run one after
 * another; each run's audio is handed to the sink in 100 ms chunks, so cancellation takes effect
 * within a chunk of audio and at the latest after the current model run.
 */
final class KokoroEngine implements SpeechEngine {
  static final int SAMPLE_RATE_HZ = 24_000;

  /** Tokens per run, leaving room for the two pad tokens of a 512-token context. */
  static final int MAX_TOKENS = 510;

  private static final int CHUNK_SAMPLES = SAMPLE_RATE_HZ / 10;

  private final OrtEnvironment env;
  private final OrtSession session;
  private final KokoroVocab vocab;
  private final KokoroVoices voices;
  private final Phonemizer phonemizer;
  private final Map<String, KokoroLanguage> languageOfVoice;
  private final String defaultVoice;
  private final OnnxProviders.Provider executionProvider;

  KokoroEngine(Path model, Path config, List<Path> voiceFiles, Phonemizer phonemizer) {
    this(model, config, voiceFiles, phonemizer, OnnxProviders.Setting.AUTO);
  }

  /**
   * @param provider {@code ONNX_PROVIDER}: the execution provider is chosen by {@link
   *     OnnxProviders#choose} from it, the providers this ONNX Runtime build offers and whether a
   *     GPU is visible, and logged on stderr
   */
  KokoroEngine(
      Path model,
      Path config,
      List<Path> voiceFiles,
      Phonemizer phonemizer,
      OnnxProviders.Setting provider) {
    if (model == null || !Files.isRegularFile(model)) {
      throw new EngineException(
          "--kokoro-model ("
              + model
              + ") must name the Kokoro-82M ONNX file (e.g. kokoro-v1.0.onnx); it is not a file");
    }
    this.vocab = KokoroVocab.read(config);
    this.voices = KokoroVoices.load(voiceFiles);
    this.phonemizer = phonemizer;
    this.languageOfVoice = languages(voices.names(), phonemizer);
    List<String> names = voices.names();
    this.defaultVoice = names.contains("af_heart") ? "af_heart" : names.getFirst();
    NativeEnvironment.disableOnnxRuntimeTelemetry();
    this.env = OrtEnvironment.getEnvironment();
    try {
      OrtSession.SessionOptions options = new OrtSession.SessionOptions();
      options.setIntraOpNumThreads(Math.max(1, Runtime.getRuntime().availableProcessors()));
      OnnxProviders.Choice choice =
          OnnxProviders.choose(
              provider,
              OrtEnvironment.getAvailableProviders(),
              OnnxProviders.Gpu.probe(Path.of("/dev"), System.getenv()));
      OnnxProviders.apply(choice, options);
      this.executionProvider = choice.provider();
      System.err.println(
          "kokoro: ONNX Runtime execution provider "
              + choice.provider()
              + " ("
              + choice.reason()
              + ")");
      this.session = env.createSession(model.toString(), options);
      checkSignature(model);
    } catch (OrtException e) {
      throw new EngineException("ONNX Runtime cannot load " + model + ": " + e.getMessage(), e);
    }
  }

  /** The execution provider the session runs on. */
  OnnxProviders.Provider executionProvider() {
    return executionProvider;
  }

  private void checkSignature(Path model) throws OrtException {
    Map<String, NodeInfo> inputs = session.getInputInfo();
    Map<String, NodeInfo> outputs = session.getOutputInfo();
    expect(model, inputs, "input_ids", OnnxJavaType.INT64);
    expect(model, inputs, "style", OnnxJavaType.FLOAT);
    expect(model, inputs, "speed", OnnxJavaType.FLOAT);
    expect(model, outputs, "waveform", OnnxJavaType.FLOAT);
  }

  private static void expect(
      Path model, Map<String, NodeInfo> nodes, String name, OnnxJavaType type) {
    NodeInfo node = nodes.get(name);
    if (node == null || !(node.getInfo() instanceof TensorInfo info) || info.type != type) {
      throw new EngineException(
          "model "
              + model
              + " is not Kokoro-shaped: it needs a "
              + type
              + " tensor '"
              + name
              + "' but has "
              + nodes.keySet()
              + "; pass the Kokoro-82M ONNX export");
    }
  }

  @Override
  public String name() {
    return "kokoro";
  }

  @Override
  public int sampleRateHz() {
    return SAMPLE_RATE_HZ;
  }

  @Override
  public List<String> voices() {
    return voices.names();
  }

  @Override
  public String defaultVoice() {
    return defaultVoice;
  }

  @Override
  public void synthesize(String text, String voice, double speed, PcmSink sink) {
    long[] tokens = vocab.encode(phonemizer.toIpa(text, language(voice).espeakLanguage()));
    short[] pcm = new short[CHUNK_SAMPLES];
    int start = 0;
    while (start < tokens.length) {
      int end = cut(tokens, start);
      float[] wave = run(Arrays.copyOfRange(tokens, start, end), voice, speed);
      for (int offset = 0; offset < wave.length; offset += CHUNK_SAMPLES) {
        int n = Math.min(CHUNK_SAMPLES, wave.length - offset);
        Pcm.toInt16(wave, offset, pcm, 0, n);
        if (!sink.accept(pcm, 0, n)) {
          return;
        }
      }
      start = end;
    }
  }

  /** The end of the run starting at {@code start}: at most MAX_TOKENS, cut after a space. */
  private int cut(long[] tokens, int start) {
    int end = Math.min(tokens.length, start + MAX_TOKENS);
    if (end == tokens.length) {
      return end;
    }
    long space = vocab.spaceId();
    for (int i = end - 1; i > start; i--) {
      if (tokens[i] == space) {
        return i + 1;
      }
    }
    return end;
  }

  private float[] run(long[] tokens, String voice, double speed) {
    long[] ids = new long[tokens.length + 2];
    ids[0] = KokoroVocab.PAD;
    System.arraycopy(tokens, 0, ids, 1, tokens.length);
    ids[ids.length - 1] = KokoroVocab.PAD;
    float[] style = voices.style(voice, tokens.length);
    try (OnnxTensor inputIds =
            OnnxTensor.createTensor(env, LongBuffer.wrap(ids), new long[] {1, ids.length});
        OnnxTensor styleTensor =
            OnnxTensor.createTensor(
                env, FloatBuffer.wrap(style), new long[] {1, KokoroVoices.STYLE_DIM});
        OnnxTensor speedTensor =
            OnnxTensor.createTensor(
                env, FloatBuffer.wrap(new float[] {(float) speed}), new long[] {1});
        OrtSession.Result result =
            session.run(
                Map.of("input_ids", inputIds, "style", styleTensor, "speed", speedTensor))) {
      OnnxValue value =
          result
              .get("waveform")
              .orElseThrow(() -> new EngineException("the model returned no 'waveform' output"));
      FloatBuffer buffer = ((OnnxTensor) value).getFloatBuffer();
      float[] wave = new float[buffer.remaining()];
      buffer.get(wave);
      return wave;
    } catch (OrtException e) {
      throw new EngineException("Kokoro model run failed: " + e.getMessage(), e);
    }
  }

  /** The language a loaded voice is phonemized in. */
  KokoroLanguage language(String voice) {
    KokoroLanguage language = languageOfVoice.get(voice);
    if (language == null) {
      throw new EngineException("no kokoro voice '" + voice + "'; loaded: " + voices.names());
    }
    return language;
  }

  /**
   * Each voice's language, refusing at start-up a voice whose first letter is not one of Kokoro's
   * languages or whose language the phonemizer cannot speak: such a voice would otherwise be
   * accepted by the request parser and fail every request with a 500.
   */
  private static Map<String, KokoroLanguage> languages(List<String> names, Phonemizer phonemizer) {
    Map<String, KokoroLanguage> languages = new TreeMap<>();
    for (String name : names) {
      KokoroLanguage language =
          KokoroLanguage.of(name)
              .orElseThrow(() ->
                  new EngineException(
                      "kokoro voice '"
                          + name
                          + "' starts with '"
                          + (name.isEmpty() ? "" : name.substring(0, 1))
                          + "', which is not a Kokoro language prefix ("
                          + KokoroLanguage.prefixes()
                          + "); rename or remove "
                          + name
                          + ".bin"));
      languages.put(name, language);
    }
    for (KokoroLanguage language : languages.values().stream().distinct().toList()) {
      try {
        phonemizer.toIpa("a", language.espeakLanguage());
      } catch (EngineException e) {
        List<String> affected = names.stream().filter(n -> languages.get(n) == language).toList();
        throw new EngineException(
            "kokoro voices "
                + affected
                + " need espeak-ng language '"
                + language.espeakLanguage()
                + "' ("
                + language
                + "), which the phonemizer cannot speak: "
                + e.getMessage()
                + "; install espeak-ng-data with that language or remove those voice files",
            e);
      }
    }
    return Collections.unmodifiableMap(languages);
  }

  @Override
  public void close() {
    try {
      session.close();
    } catch (OrtException e) {
      throw new EngineException("cannot close the ONNX session: " + e.getMessage(), e);
    }
  }
}
