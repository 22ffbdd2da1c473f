package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.ScaleOutStage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartupAndConfigTest {

  @Test
  void format_knownInstants_isByteExact() {
    Instant epoch = Instant.parse("2026-01-02T03:04:00Z");
    Instant now = Instant.parse("2026-01-02T03:04:05.678912Z");
    assertThat(StageMarkers.format(ScaleOutStage.WEIGHTS_READY, now, epoch))
        .isEqualTo("=== STAGE weights_ready t=2026-01-02T03:04:05.678Z elapsed_s=5.679 ===");
  }

  @Test
  void mark_fixedClock_printsOneLinePerStage() {
    var out = new ByteArrayOutputStream();
    Clock clock = Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC);
    StageMarkers markers =
        new StageMarkers(
            clock,
            Instant.parse("2026-01-02T03:04:04.5Z"),
            new PrintStream(out, true, StandardCharsets.UTF_8));
    for (ScaleOutStage s : ScaleOutStage.containerStages()) {
      markers.mark(s);
    }
    assertThat(out.toString(StandardCharsets.UTF_8).lines())
        .containsExactly(
            "=== STAGE framework_init t=2026-01-02T03:04:05.000Z elapsed_s=0.500 ===",
            "=== STAGE weights_ready t=2026-01-02T03:04:05.000Z elapsed_s=0.500 ===",
            "=== STAGE warmup_done t=2026-01-02T03:04:05.000Z elapsed_s=0.500 ===",
            "=== STAGE ready t=2026-01-02T03:04:05.000Z elapsed_s=0.500 ===");
  }

  @Test
  void parse_envOnly_usesContainerContract() {
    ServerConfig c =
        ServerConfig.parse(
            List.of("serve"),
            Map.of(
                "MAX_QUEUE_DEPTH", "50",
                "MAX_REQUEST_AGE_S", "12.5",
                "WARMUP_TEXT", "Ready.",
                "CONTAINER_START_EPOCH", "1735689600.25"));
    assertThat(c.maxQueueDepth()).isEqualTo(50);
    assertThat(c.maxRequestAge()).isEqualTo(Duration.ofMillis(12_500));
    assertThat(c.warmupText()).isEqualTo("Ready.");
    assertThat(c.containerStart()).contains(Instant.parse("2025-01-01T00:00:00.250Z"));
    assertThat(c.port()).isEqualTo(8080);
    assertThat(c.engine()).isEqualTo(EngineKind.FLITE);
  }

  @Test
  void parse_flagsAndEnv_flagsWin() {
    ServerConfig c =
        ServerConfig.parse(
            List.of(
                "--max-queue-depth",
                "7",
                "--port=0",
                "--engine",
                "espeak",
                "--segmentation",
                "sentence"),
            Map.of("MAX_QUEUE_DEPTH", "50"));
    assertThat(c.maxQueueDepth()).isEqualTo(7);
    assertThat(c.port()).isZero();
    assertThat(c.engine()).isEqualTo(EngineKind.ESPEAK);
    assertThat(c.segmentation()).isEqualTo(Segmentation.SENTENCE);
  }

  @Test
  void parse_badValues_nameTheSettingAndValue() {
    assertThatThrownBy(() -> ServerConfig.parse(List.of("--port", "x"), Map.of()))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("--port (x)");
    assertThatThrownBy(() -> ServerConfig.parse(List.of(), Map.of("MAX_QUEUE_DEPTH", "-1")))
        .hasMessageContaining("MAX_QUEUE_DEPTH (-1)");
    assertThatThrownBy(() -> ServerConfig.parse(List.of(), Map.of("CONTAINER_START_EPOCH", "soon")))
        .hasMessageContaining("CONTAINER_START_EPOCH (soon)");
    assertThatThrownBy(() -> ServerConfig.parse(List.of("--engine", "piper"), Map.of()))
        .hasMessageContaining("--engine / ENGINE (piper) must be flite, espeak or kokoro");
    assertThatThrownBy(() -> ServerConfig.parse(List.of("--bogus", "1"), Map.of()))
        .hasMessageContaining("unknown option --bogus");
    assertThatThrownBy(() -> ServerConfig.parse(List.of("--engine", "kokoro"), Map.of()))
        .hasMessageContaining("engine kokoro needs --kokoro-model FILE / KOKORO_MODEL");
  }

  @Test
  void parse_engineAndSettingsFromEnv_configureTheServer() {
    ServerConfig c =
        ServerConfig.parse(
            List.of("serve", "--port", "0"),
            Map.of(
                "ENGINE", "espeak",
                "SEGMENTATION", "sentence",
                "ENGINE_THREADS", "3",
                "MAX_TEXT_CHARS", "100",
                "DRAIN_TIMEOUT_S", "5",
                "MAX_BUFFERED_BYTES", "70000",
                "MAX_BODY_BYTES", "2048",
                "MAX_BODY_READERS", "7",
                "BODY_READ_TIMEOUT_S", "2.5"));
    assertThat(c.engine()).isEqualTo(EngineKind.ESPEAK);
    assertThat(c.segmentation()).isEqualTo(Segmentation.SENTENCE);
    assertThat(c.engineThreads()).isEqualTo(3);
    assertThat(c.maxTextChars()).isEqualTo(100);
    assertThat(c.drainTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.maxBufferedBytes()).isEqualTo(70_000);
    assertThat(c.bodies().maxBytes()).isEqualTo(2048);
    assertThat(c.bodies().maxReaders()).isEqualTo(7);
    assertThat(c.bodies().readTimeout()).isEqualTo(Duration.ofMillis(2500));
  }

  @Test
  void parse_bodySettings_defaultAndRefuseNonsense() {
    ServerConfig c = ServerConfig.defaults();
    assertThat(c.bodies().maxReaders()).isEqualTo(64);
    assertThat(c.bodies().readTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThatThrownBy(() -> ServerConfig.parse(List.of("--max-body-readers", "0"), Map.of()))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("--max-body-readers (0) must be positive");
    assertThatThrownBy(
            () -> ServerConfig.parse(List.of("--port", "0"), Map.of("BODY_READ_TIMEOUT_S", "0")))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("BODY_READ_TIMEOUT_S (0.0) must be at least 0.1 s");
  }

  @Test
  void parse_kokoroFromEnv_readsModelConfigAndVoiceList() {
    ServerConfig c =
        ServerConfig.parse(
            List.of("serve"),
            Map.of(
                "ENGINE", "kokoro",
                "KOKORO_MODEL", "/opt/ml/model/onnx/model.onnx",
                "KOKORO_CONFIG", "/opt/ml/model/config.json",
                "KOKORO_VOICES", "/opt/ml/model/voices/af.bin:/opt/ml/model/voices/am.bin"));
    assertThat(c.engine()).isEqualTo(EngineKind.KOKORO);
    assertThat(c.kokoroModel()).contains(Path.of("/opt/ml/model/onnx/model.onnx"));
    assertThat(c.kokoroConfigPath()).isEqualTo(Path.of("/opt/ml/model/config.json"));
    assertThat(c.kokoroVoices())
        .containsExactly(
            Path.of("/opt/ml/model/voices/af.bin"), Path.of("/opt/ml/model/voices/am.bin"));
  }

  @Test
  void parse_kokoroModelAtTheRootWithoutConfig_isRefusedNamingTheFix() {
    // config.json is looked for beside the model: the root has no directory to look in
    assertThatThrownBy(() ->
            ServerConfig.parse(
                List.of("--engine", "kokoro", "--kokoro-model", "/", "--kokoro-voices", "/v.bin"),
                Map.of()))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("--kokoro-model / KOKORO_MODEL (/)")
        .hasMessageContaining("--kokoro-config");
  }

  @Test
  void parse_engineFlag_overridesEngineVariable() {
    ServerConfig c = ServerConfig.parse(List.of("--engine", "flite"), Map.of("ENGINE", "espeak"));
    assertThat(c.engine()).isEqualTo(EngineKind.FLITE);
  }

  @Test
  void parse_unknownEngineVariable_isRefusedNamingVariableAndValue() {
    assertThatThrownBy(() -> ServerConfig.parse(List.of("serve"), Map.of("ENGINE", "piper")))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("ENGINE (piper) must be flite, espeak or kokoro");
  }

  @Test
  void parse_misspelledOwnedVariable_isRefusedListingKnownNames() {
    assertThatThrownBy(() ->
            ServerConfig.parse(
                List.of("serve"), Map.of("ENGINE", "kokoro", "KOKORO_MODLE", "/m.onnx")))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("KOKORO_MODLE is not a speech-server setting")
        .hasMessageContaining("KOKORO_MODEL");
  }

  @Test
  void parse_kokoroSettingWithAnotherEngine_isRefusedAsInconsistent() {
    assertThatThrownBy(() ->
            ServerConfig.parse(
                List.of("serve"), Map.of("ENGINE", "flite", "KOKORO_MODEL", "/m.onnx")))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("KOKORO_MODEL is set but the engine is flite");
    assertThatThrownBy(
            () -> ServerConfig.parse(List.of("--kokoro-voices", "/v"), Map.of("ENGINE", "espeak")))
        .hasMessageContaining("--kokoro-voices is set but the engine is espeak");
  }

  @Test
  void parse_badNumberInVariable_namesTheVariable() {
    assertThatThrownBy(() -> ServerConfig.parse(List.of(), Map.of("ENGINE_THREADS", "two")))
        .hasMessageContaining("ENGINE_THREADS (two) must be a whole number");
  }

  @Test
  void envSettings_areExactlyTheFlagsButHostAndPort() {
    java.util.Set<String> flags = new java.util.TreeSet<>();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("^\\s+(--[a-z-]+)", java.util.regex.Pattern.MULTILINE)
            .matcher(ServerConfig.USAGE);
    while (m.find()) {
      if (!m.group(1).equals("--host") && !m.group(1).equals("--port")) {
        flags.add(ServerConfig.envName(m.group(1)));
      }
    }
    assertThat(new java.util.TreeSet<>(ServerConfig.ENV_SETTINGS)).isEqualTo(flags);
  }

  @Test
  void run_unknownEngineInEnvironment_exits2BeforeListening() {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    int code =
        Main.run(
            new String[] {"serve", "--port", "0"},
            Map.of("ENGINE", "piper"),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .startsWith("speech-server: --engine / ENGINE (piper) must be flite, espeak or kokoro");
    assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("listening", "STAGE");
  }

  @Test
  void run_usageError_exits2WithMessage() {
    var err = new ByteArrayOutputStream();
    int code =
        Main.run(
            new String[] {"--port", "nope"},
            Map.of(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("--port (nope) must be a whole number");
  }

  /** An engine that loads but whose every synthesis fails (kokoro without espeak-ng). */
  private static SpeechEngine failingEngine() {
    ScriptedEngine engine = new ScriptedEngine(1, 1);
    engine.failEveryCall = "espeak-ng is not installed; the phonemizer cannot run";
    return engine;
  }

  @Test
  void run_warmupFails_exits1NamingTheReasonAndNeverTurnsReady() {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    int code =
        Main.run(
            new String[] {"--port", "0"},
            Map.of(),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            config -> failingEngine());
    assertThat(code).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("warm-up synthesis failed")
        .contains("espeak-ng is not installed");
    assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("STAGE ready");
  }

  @Test
  void run_unexpectedStartupError_exits1NamingTheReason() {
    var err = new ByteArrayOutputStream();
    int code =
        Main.run(
            new String[] {"--port", "0"},
            Map.of(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            config -> {
              throw new IllegalStateException("libonnxruntime.so: cannot map segment");
            });
    assertThat(code).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("start-up failed")
        .contains("IllegalStateException")
        .contains("libonnxruntime.so: cannot map segment");
  }

  @Test
  void run_help_printsUsageAndExits0() {
    var out = new ByteArrayOutputStream();
    int code =
        Main.run(
            new String[] {"--help"},
            Map.of(),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            System.err);
    assertThat(code).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("--max-queue-depth")
        .contains("CONTAINER_START_EPOCH");
  }

  @Test
  void kokoro_voiceFileOfWrongSize_isRefusedWithSizeAndFix(@TempDir Path dir) throws Exception {
    var files = KokoroStandIn.write(dir);
    Files.write(files.voices().resolve("af_short.bin"), new byte[1024]);
    assertThatThrownBy(() ->
            new KokoroEngine(
                files.model(), files.config(), List.of(files.voices()), Phonemizer.espeak()))
        .isInstanceOf(EngineException.class)
        .hasMessageContaining("af_short.bin has 1024 bytes")
        .hasMessageContaining("510x256 float32");
  }

  @Test
  void kokoro_modelWithoutWaveformOutput_isRefusedNamingTheTensor(@TempDir Path dir)
      throws Exception {
    var files = KokoroStandIn.write(dir);
    Files.write(files.model(), KokoroStandIn.model(false));
    assertThatThrownBy(() ->
            new KokoroEngine(
                files.model(), files.config(), List.of(files.voices()), Phonemizer.espeak()))
        .isInstanceOf(EngineException.class)
        .hasMessageContaining("'waveform'")
        .hasMessageContaining("not Kokoro-shaped");
  }

  @Test
  void kokoro_configWithoutVocab_isRefused(@TempDir Path dir) throws Exception {
    var files = KokoroStandIn.write(dir);
    Files.writeString(files.config(), "{\"model\":\"x\"}");
    assertThatThrownBy(() ->
            new KokoroEngine(
                files.model(), files.config(), List.of(files.voices()), Phonemizer.espeak()))
        .hasMessageContaining("no non-empty \"vocab\"");
  }

  @Test
  void kokoro_textLongerThanContext_isRunInSeveralPiecesWithAllAudio(@TempDir Path dir)
      throws Exception {
    var files = KokoroStandIn.write(dir);
    // a phonemizer that returns a fixed, long IPA string: 700 tokens incl. spaces
    String ipa = "ab ".repeat(233) + "a";
    try (KokoroEngine engine =
        new KokoroEngine(files.model(), files.config(), List.of(files.voices()), (t, l) -> ipa)) {
      long samples = Synthesized.samples(engine, "ignored", "af_heart");
      int tokens = ipa.length();
      // two model runs, each padded with two tokens
      assertThat(samples).isEqualTo((long) (tokens + 4) * KokoroStandIn.SAMPLES_PER_TOKEN);
    }
  }

  @Test
  void kokoro_voiceStyle_setsAmplitude(@TempDir Path dir) throws Exception {
    var files = KokoroStandIn.write(dir);
    try (KokoroEngine engine =
        new KokoroEngine(files.model(), files.config(), List.of(files.voices()), (t, l) -> "abc")) {
      assertThat(engine.voices()).containsExactly("af_heart", "bm_lewis");
      assertThat(peak(engine, "bm_lewis")).isGreaterThan(peak(engine, "af_heart") * 3 / 2);
    }
  }

  private static int peak(KokoroEngine engine, String voice) {
    int[] peak = {0};
    engine.synthesize(
        "x",
        voice,
        1.0,
        (s, o, n) -> {
          for (int i = o; i < o + n; i++) {
            peak[0] = Math.max(peak[0], Math.abs(s[i]));
          }
          return true;
        });
    return peak[0];
  }
}
