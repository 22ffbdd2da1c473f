package dev.speechscale.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Everything speech-server is configured with. Environment variables follow the SageMaker container
 * contract; command-line flags override them. Over 300 lines because it is the one place every
 * setting is named, as a flag and as a variable, with its default and its rule.
 *
 * @param maxQueueDepth the in-flight bound ({@code MAX_QUEUE_DEPTH}); 0 = no bound
 * @param maxRequestAge how old a request may be before its first byte ({@code MAX_REQUEST_AGE_S})
 * @param containerStart the origin of {@code elapsed_s} ({@code CONTAINER_START_EPOCH}); empty =
 *     process start
 * @param engineThreads engine concurrency; 0 = the engine's own default
 * @param maxBufferedBytes per-request bound on audio waiting to be written
 * @param modelDir the model directory ({@code MODEL_DIR}, else /opt/ml/model when it exists): its
 *     {@code MANIFEST.sha256} is verified before weights_ready, and Kokoro's files are found in it
 *     when not named one by one
 * @param onnxProvider the ONNX Runtime execution provider for kokoro ({@code ONNX_PROVIDER}: auto,
 *     cpu or cuda)
 * @param maxAudio the most audio one request may produce ({@code MAX_AUDIO_S}); past it the engine
 *     is stopped and the request answered {@code audio_cap_exceeded}
 * @param engineStall the watchdog's bound on one engine call that produces nothing ({@code
 *     ENGINE_STALL_S}); past it the call is declared stuck and the instance unhealthy
 * @param maxWsSessions the most WebSocket sessions open at once ({@code MAX_WS_SESSIONS})
 * @param bodies how request bodies are read: their size bound, how many may be read at once and how
 *     long one may take
 */
record ServerConfig(
    EngineKind engine,
    String host,
    int port,
    int maxQueueDepth,
    int maxTextChars,
    Segmentation segmentation,
    Duration maxRequestAge,
    String warmupText,
    Optional<Instant> containerStart,
    Duration drainTimeout,
    int engineThreads,
    long maxBufferedBytes,
    Bodies bodies,
    Optional<Path> kokoroModel,
    Optional<Path> kokoroConfig,
    List<Path> kokoroVoices,
    Optional<Path> modelDir,
    OnnxProviders.Setting onnxProvider,
    Duration maxAudio,
    Duration engineStall,
    int maxWsSessions) {

  /**
   * The default audio cap per character of the text cap. Measured: the most audio per character
   * from the 36 hostile texts plus 7 hard ordinary ones (digit runs, grouped numbers, currency,
   * abbreviations) at speed 1.0 was 0.562 s (espeak-ng, a 14-character number; flite 0.384 s);
   * doubled for speed 0.5 that is 1.124 s, rounded up to 1.25 (measurements/hardening.md, "audio
   * per character"). A runaway engine is stopped after 5120 s of audio at the default text cap.
   */
  static final double DEFAULT_AUDIO_S_PER_CHAR = 1.25;

  /**
   * The default session cap: each open session may hold {@link BidiSession#PENDING_MESSAGES}
   * messages of up to {@code --max-body-bytes} (1 MiB at the defaults), so 128 bound that memory to
   * 128 MiB.
   */
  static final int DEFAULT_WS_SESSIONS = 128;

  /**
   * How request bodies are read (issue 37: two trickling bodies took a whole gate when requests
   * were admitted before their bodies arrived). A body that did not come with its headers is read
   * by one of at most {@code maxReaders} readers, outside the gate, within {@code readTimeout};
   * only a whole body is admitted. Memory for bodies being read is bounded by {@code maxReaders x
   * maxBytes} (4 MiB at the defaults).
   *
   * @param maxBytes the largest body accepted ({@code MAX_BODY_BYTES}); larger is 413
   * @param maxReaders bodies read at once ({@code MAX_BODY_READERS}); past it 503 and the
   *     connection is closed
   * @param readTimeout how long the rest of a body may take ({@code BODY_READ_TIMEOUT_S}); past it
   *     408 and the connection is closed
   */
  record Bodies(int maxBytes, int maxReaders, Duration readTimeout) {
    static final int DEFAULT_MAX_BYTES = 65_536;
    static final int DEFAULT_MAX_READERS = 64;
    static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(10);

    Bodies {
      positive("--max-body-bytes", maxBytes);
      positive("--max-body-readers", maxReaders);
      if (readTimeout.compareTo(Duration.ofMillis(100)) < 0) {
        throw new UsageException(
            "--body-read-timeout-s / BODY_READ_TIMEOUT_S ("
                + readTimeout.toMillis() / 1000.0
                + ") must be at least 0.1 s; a body sent whole arrives in microseconds on loopback");
      }
    }
  }

  /** The default watchdog bound on one engine call without progress. */
  static final Duration DEFAULT_ENGINE_STALL = Duration.ofSeconds(60);

  static final String USAGE =
      """
      usage: speech-server [serve] [options]
        --engine flite|espeak|kokoro   TTS engine (default flite)
        --host ADDR                    bind address (default 127.0.0.1; 0.0.0.0 in a container)
        --port N                       port (default 8080; 0 picks a free one)
        --max-queue-depth N            in-flight bound, queued+executing+streaming (env MAX_QUEUE_DEPTH; 0 = none)
        --max-request-age-s S          request deadline (env MAX_REQUEST_AGE_S, default 56)
        --max-text-chars N             text length cap (default 4096)
        --segmentation paragraph|sentence   how text is cut into streamed segments (default paragraph)
        --warmup-text TEXT             warm-up utterance (env WARMUP_TEXT)
        --drain-timeout-s S            graceful-shutdown bound (default 30)
        --engine-threads N             engine concurrency (default: flite = CPU count, others 1)
        --max-buffered-bytes N         per-request audio buffer bound (default 16777216)
        --max-body-bytes N             request body bound (default 65536)
        --max-body-readers N           bodies that did not come with their headers read at once,
                                       before admission (default 64; past it 503, connection closed)
        --body-read-timeout-s S        how long the rest of a body may take (default 10; then 408)
        --max-audio-s S                audio cap per request, seconds (env MAX_AUDIO_S;
                                       default max-text-chars x 1.25 s = 5120)
        --engine-stall-s S             watchdog: an engine call with no audio for this long marks
                                       the instance unhealthy (env ENGINE_STALL_S, default 60)
        --max-ws-sessions N            WebSocket sessions open at once (env MAX_WS_SESSIONS, default 128)
        --kokoro-model FILE            Kokoro-82M ONNX model (kokoro engine)
        --kokoro-config FILE           config.json with "vocab" (default: beside the model)
        --kokoro-voices FILE|DIR       voice .bin file(s), kokoro-js layout; repeatable
        --onnx-provider auto|cpu|cuda  kokoro's ONNX Runtime execution provider (default auto: CUDA
                                       when the image has the GPU build and a GPU is visible)
        --model-dir DIR                model directory (default /opt/ml/model when it exists):
                                       MANIFEST.sha256 verified at start; Kokoro files found there
      every option but --host and --port may come from the environment as its upper-case name
      (--engine -> ENGINE, --kokoro-model -> KOKORO_MODEL, --kokoro-voices -> KOKORO_VOICES with
      ':' between paths); a flag overrides its variable. Also CONTAINER_START_EPOCH.
      """;

  ServerConfig {
    if (port < 0 || port > 65_535) {
      throw new UsageException("--port (" + port + ") must be between 0 and 65535");
    }
    positive("--max-text-chars", maxTextChars);
    if (maxQueueDepth < 0) {
      throw new UsageException(
          "--max-queue-depth / MAX_QUEUE_DEPTH ("
              + maxQueueDepth
              + ") must be 0 (no bound) or more");
    }
    if (engineThreads < 0) {
      throw new UsageException("--engine-threads (" + engineThreads + ") must be 0 (auto) or more");
    }
    if (maxBufferedBytes < 65_536) {
      throw new UsageException(
          "--max-buffered-bytes (" + maxBufferedBytes + ") must be at least 65536");
    }
    if (maxRequestAge.isNegative() || maxRequestAge.isZero()) {
      throw new UsageException(
          "--max-request-age-s / MAX_REQUEST_AGE_S (" + maxRequestAge + ") must be positive");
    }
    if (!maxAudio.isPositive()) {
      throw new UsageException("--max-audio-s / MAX_AUDIO_S (" + maxAudio + ") must be positive");
    }
    if (engineStall.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new UsageException(
          "--engine-stall-s / ENGINE_STALL_S (" + engineStall + ") must be at least 1 s");
    }
    positive("--max-ws-sessions", maxWsSessions);
    kokoroVoices = List.copyOf(kokoroVoices);
    if (engine == EngineKind.KOKORO && (kokoroModel.isEmpty() || kokoroVoices.isEmpty())) {
      throw new UsageException(
          "engine kokoro needs --kokoro-model FILE / KOKORO_MODEL and --kokoro-voices FILE|DIR /"
              + " KOKORO_VOICES, or a model directory (--model-dir / MODEL_DIR, /opt/ml/model in a"
              + " container) in the Kokoro-82M ONNX export's layout (onnx/model.onnx, config.json,"
              + " voices/*.bin); no registry here ships the weights");
    }
    if (kokoroConfig.isEmpty() && kokoroModel.isPresent()) {
      configBeside(kokoroModel.get()); // refused here, at start-up, not when the engine loads
    }
  }

  private static void positive(String flag, long value) {
    if (value <= 0) {
      throw new UsageException(flag + " (" + value + ") must be positive");
    }
  }

  /** Defaults for tests: flite, 127.0.0.1:0, no bound. */
  static ServerConfig defaults() {
    return parse(List.of("--port", "0"), Map.of());
  }

  /** The Kokoro config: {@code --kokoro-config}, else config.json beside the model. */
  Path kokoroConfigPath() {
    return kokoroConfig.orElseGet(() -> configBeside(kokoroModel.orElseThrow()));
  }

  private static Path configBeside(Path model) {
    Path dir = model.toAbsolutePath().getParent();
    if (dir == null) {
      throw new UsageException(
          "--kokoro-model / KOKORO_MODEL ("
              + model
              + ") has no directory to find config.json in; name the model file, or pass"
              + " --kokoro-config / KOKORO_CONFIG with the config.json");
    }
    return dir.resolve("config.json");
  }

  /**
   * The settings a container environment may carry, each the upper-case name of its flag ({@code
   * --kokoro-model} → {@code KOKORO_MODEL}). They are what chooses and configures the engine in a
   * container, on the local platform and on SageMaker alike.
   */
  static final List<String> ENV_SETTINGS =
      List.of(
          "ENGINE",
          "ENGINE_THREADS",
          "SEGMENTATION",
          "MAX_QUEUE_DEPTH",
          "MAX_REQUEST_AGE_S",
          "MAX_TEXT_CHARS",
          "WARMUP_TEXT",
          "DRAIN_TIMEOUT_S",
          "MAX_BUFFERED_BYTES",
          "MAX_BODY_BYTES",
          "MAX_BODY_READERS",
          "BODY_READ_TIMEOUT_S",
          "MAX_AUDIO_S",
          "ENGINE_STALL_S",
          "MAX_WS_SESSIONS",
          "KOKORO_MODEL",
          "KOKORO_CONFIG",
          "KOKORO_VOICES",
          "ONNX_PROVIDER",
          "MODEL_DIR");

  /** Variable prefixes owned by speech-server: an unknown name under one is a typo, refused. */
  private static final List<String> OWNED_PREFIXES = List.of("ENGINE_", "KOKORO_");

  /** The environment variable that carries a flag: {@code --max-text-chars} → MAX_TEXT_CHARS. */
  static String envName(String flag) {
    return flag.substring(2).replace('-', '_').toUpperCase(Locale.ROOT);
  }

  static ServerConfig parse(List<String> args, Map<String, String> env) {
    return parse(args, env, ModelDirectory.SAGEMAKER);
  }

  /**
   * Parses flags over the environment.
   *
   * @param defaultModelDir the model directory used when none is named, if it exists
   */
  static ServerConfig parse(List<String> args, Map<String, String> env, Path defaultModelDir) {
    rejectUnknownEnv(env);
    Flags f = new Flags(args, env);
    EngineKind engine = EngineKind.parse(f.value("--engine").orElse("flite"));
    String host = f.value("--host").orElse("127.0.0.1");
    int port = f.integer("--port").orElse(8080);
    int depth = f.integer("--max-queue-depth").orElse(0);
    double ageS = f.decimal("--max-request-age-s").orElse(56.0);
    String warmup = f.value("--warmup-text").orElse("Warming up.");
    Optional<Instant> start =
        Optional.ofNullable(env.get("CONTAINER_START_EPOCH"))
            .filter(v -> !v.isBlank())
            .map(v -> epoch(v));
    Optional<Path> modelDir =
        f.value("--model-dir")
            .map(Path::of)
            .or(() -> Optional.of(defaultModelDir).filter(Files::isDirectory));
    Kokoro kokoro = Kokoro.of(engine, f, modelDir);
    int maxTextChars = f.integer("--max-text-chars").orElse(4096);
    double maxAudioS =
        f.decimal("--max-audio-s").orElse(Math.ceil(maxTextChars * DEFAULT_AUDIO_S_PER_CHAR));
    double stallS = f.decimal("--engine-stall-s").orElse(DEFAULT_ENGINE_STALL.toSeconds() * 1.0);
    ServerConfig config =
        new ServerConfig(
            engine,
            host,
            port,
            depth,
            maxTextChars,
            Segmentation.parse(f.value("--segmentation").orElse("paragraph")),
            Duration.ofNanos((long) (ageS * 1e9)),
            warmup,
            start,
            Duration.ofNanos((long) (f.decimal("--drain-timeout-s").orElse(30.0) * 1e9)),
            f.integer("--engine-threads").orElse(0),
            f.integer("--max-buffered-bytes").orElse(16 * 1024 * 1024),
            new Bodies(
                f.integer("--max-body-bytes").orElse(Bodies.DEFAULT_MAX_BYTES),
                f.integer("--max-body-readers").orElse(Bodies.DEFAULT_MAX_READERS),
                seconds(
                    f.decimal("--body-read-timeout-s")
                        .orElse(Bodies.DEFAULT_READ_TIMEOUT.toMillis() / 1000.0))),
            kokoro.model(),
            kokoro.config(),
            kokoro.voices(),
            modelDir,
            onnxProvider(engine, f),
            seconds(maxAudioS),
            seconds(stallS),
            f.integer("--max-ws-sessions").orElse(DEFAULT_WS_SESSIONS));
    f.rejectUnused();
    return config;
  }

  /**
   * The Kokoro files: as named by flags or variables, the rest found in the model directory's
   * published layout. Under another engine any Kokoro setting is a contradiction, refused.
   */
  private record Kokoro(Optional<Path> model, Optional<Path> config, List<Path> voices) {
    static Kokoro of(EngineKind engine, Flags f, Optional<Path> modelDir) {
      Optional<Path> model = f.value("--kokoro-model").map(Path::of);
      Optional<Path> config = f.value("--kokoro-config").map(Path::of);
      List<Path> voices = f.values("--kokoro-voices").stream().map(Path::of).toList();
      if (engine != EngineKind.KOKORO) {
        for (String flag : List.of("--kokoro-model", "--kokoro-config", "--kokoro-voices")) {
          Optional<String> where = f.source(flag);
          if (where.isPresent()) {
            throw new UsageException(
                where.get()
                    + " is set but the engine is "
                    + engine.cliName()
                    + " (--engine / ENGINE); Kokoro settings apply only to ENGINE=kokoro: set"
                    + " ENGINE=kokoro or remove "
                    + where.get());
          }
        }
        return new Kokoro(model, config, voices);
      }
      if ((model.isPresent() && !voices.isEmpty()) || modelDir.isEmpty()) {
        return new Kokoro(model, config, voices);
      }
      ModelDirectory.KokoroFiles found = new ModelDirectory(modelDir.get()).kokoro();
      return new Kokoro(
          model.or(() -> Optional.of(found.model())),
          model.isPresent() ? config : config.or(() -> Optional.of(found.config())),
          voices.isEmpty() ? List.of(found.voices()) : voices);
    }
  }

  /**
   * {@code ONNX_PROVIDER}: only kokoro runs ONNX Runtime, so under another engine it is refused.
   */
  private static OnnxProviders.Setting onnxProvider(EngineKind engine, Flags f) {
    Optional<String> value = f.value("--onnx-provider");
    if (value.isPresent() && engine != EngineKind.KOKORO) {
      String where = f.source("--onnx-provider").orElse("--onnx-provider");
      throw new UsageException(
          where
              + " is set but the engine is "
              + engine.cliName()
              + " (--engine / ENGINE); the ONNX Runtime provider applies only to ENGINE=kokoro: set"
              + " ENGINE=kokoro or remove "
              + where);
    }
    return value.map(OnnxProviders.Setting::parse).orElse(OnnxProviders.Setting.AUTO);
  }

  private static Duration seconds(double s) {
    return Double.isFinite(s) ? Duration.ofNanos((long) (s * 1e9)) : Duration.ZERO;
  }

  private static void rejectUnknownEnv(Map<String, String> env) {
    for (String name : env.keySet().stream().sorted().toList()) {
      if (OWNED_PREFIXES.stream().anyMatch(name::startsWith) && !ENV_SETTINGS.contains(name)) {
        throw new UsageException(
            "environment variable "
                + name
                + " is not a speech-server setting; known: "
                + String.join(", ", ENV_SETTINGS)
                + " (fix the name or remove it)");
      }
    }
  }

  private static Instant epoch(String value) {
    try {
      double seconds = Double.parseDouble(value.strip());
      if (!Double.isFinite(seconds) || seconds < 0) {
        throw new NumberFormatException();
      }
      long whole = (long) Math.floor(seconds);
      return Instant.ofEpochSecond(whole, (long) ((seconds - whole) * 1e9));
    } catch (NumberFormatException e) {
      throw new UsageException(
          "CONTAINER_START_EPOCH (" + value + ") must be epoch seconds such as 1735689600.25");
    }
  }

  /**
   * A tiny flag reader: {@code --name value} or {@code --name=value}; a leading serve is allowed. A
   * flag that is absent falls back to its environment variable ({@link #envName}); blank counts as
   * unset.
   */
  private static final class Flags {
    private final List<String[]> pairs = new ArrayList<>();
    private final List<String> used = new ArrayList<>();
    private final Map<String, String> env;

    Flags(List<String> args, Map<String, String> env) {
      this.env = env;
      for (int i = 0; i < args.size(); i++) {
        String arg = args.get(i);
        if (i == 0 && arg.equals("serve")) {
          continue;
        }
        if (!arg.startsWith("--")) {
          throw new UsageException("unexpected argument '" + arg + "'\n" + USAGE);
        }
        int eq = arg.indexOf('=');
        if (eq > 0) {
          pairs.add(new String[] {arg.substring(0, eq), arg.substring(eq + 1)});
        } else if (i + 1 < args.size()) {
          pairs.add(new String[] {arg, args.get(++i)});
        } else {
          throw new UsageException(arg + " needs a value\n" + USAGE);
        }
      }
    }

    Optional<String> value(String name) {
      used.add(name);
      String found = null;
      for (String[] p : pairs) {
        if (p[0].equals(name)) {
          found = p[1];
        }
      }
      return Optional.ofNullable(found).or(() -> fromEnv(name));
    }

    private Optional<String> fromEnv(String flag) {
      return Optional.ofNullable(env.get(envName(flag)))
          .filter(v -> !v.isBlank())
          .map(String::strip);
    }

    /** Where a setting came from, as a user would name it: the flag, the variable, or empty. */
    Optional<String> source(String flag) {
      if (pairs.stream().anyMatch(p -> p[0].equals(flag))) {
        return Optional.of(flag);
      }
      return fromEnv(flag).map(v -> envName(flag));
    }

    /** A repeatable flag; its variable holds the values separated by {@code :}. */
    List<String> values(String name) {
      used.add(name);
      List<String> given = pairs.stream().filter(p -> p[0].equals(name)).map(p -> p[1]).toList();
      if (!given.isEmpty()) {
        return given;
      }
      return fromEnv(name).stream()
          .flatMap(v -> java.util.Arrays.stream(v.split(":")))
          .filter(v -> !v.isBlank())
          .toList();
    }

    Optional<Integer> integer(String name) {
      return parsed(name, Integer::parseInt, "a whole number");
    }

    Optional<Double> decimal(String name) {
      return parsed(name, Double::parseDouble, "a number");
    }

    /** The option's value through {@code parse}; one it cannot read must be {@code what}. */
    private <T> Optional<T> parsed(String name, Function<String, T> parse, String what) {
      return value(name)
          .map(v -> {
            try {
              return parse.apply(v);
            } catch (NumberFormatException e) {
              throw new UsageException(source(name).orElse(name) + " (" + v + ") must be " + what);
            }
          });
    }

    void rejectUnused() {
      for (String[] p : pairs) {
        if (!used.contains(p[0])) {
          throw new UsageException(
              "unknown option " + p[0].toLowerCase(Locale.ROOT) + "\n" + USAGE);
        }
      }
    }
  }
}
