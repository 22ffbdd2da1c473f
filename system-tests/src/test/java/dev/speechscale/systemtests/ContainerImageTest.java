package dev.speechscale.systemtests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.platform.aws.AwsEndpointSpec;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The speech-server image run the way SageMaker runs it: built by {@code bin/image build} (podman
 * from a debootstrap root file system and a jlink'ed runtime), started as {@code podman run IMAGE
 * serve} with nothing but the endpoint config's container environment, port 8080 published to
 * loopback and a model directory mounted read-only at /opt/ml/model. Skipped, with the reason
 * printed, only where no container runtime can be installed.
 */
class ContainerImageTest {
  /** A tag of this run's own: concurrent runs (other worktrees) never run each other's image. */
  private static final String IMAGE =
      "localhost/speech-server:system-test-" + UUID.randomUUID().toString().substring(0, 8);

  private static final Duration START_BOUND = Duration.ofMinutes(3);
  private static final Pattern STAGE =
      Pattern.compile(
          "=== STAGE (\\w+) t=\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z elapsed_s=\\d+\\.\\d{3}"
              + " ===");

  /** An endpoint config as a user writes it for SageMaker: flite, sentence segmentation. */
  private static final String CONFIG =
      """
      models:
        container:
          engine: flite
          engine_settings: {segmentation: sentence}
          instance_type: ml.c5.xlarge
          queue_max_depth: 8
          container_env: {WARMUP_TEXT: "Container warm-up."}
          aws:
            image_uri: 123456789012.dkr.ecr.us-east-1.amazonaws.com/speech-server@sha256:%s
            model_repository: example/none
            model_revision: 0123456789abcdef0123456789abcdef01234567
            quota_max_instances: 2
      """
          .formatted("0".repeat(64));

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void buildImage() throws Exception {
    Optional<String> why = Podman.unavailableReason();
    if (why.isPresent()) {
      System.out.println("ContainerImageTest skipped: " + why.get());
    }
    assumeTrue(why.isEmpty(), () -> why.orElseThrow());
    Path root = Path.of("").toAbsolutePath().getParent();
    long started = System.nanoTime();
    Podman.Result build =
        Podman.run(
            List.of("bin/image", "build", "--prebuilt", "--tag", IMAGE),
            root,
            Duration.ofMinutes(20));
    assertThat(build.exitCode()).as("bin/image build:\n%s", build.out()).isZero();
    System.out.printf(
        "ContainerImageTest: bin/image build --prebuilt took %.1f s%n",
        (System.nanoTime() - started) / 1e9);
  }

  @AfterAll
  static void removeImage() throws Exception {
    if (Podman.onPath("podman")) {
      // the tag only; the layers stay cached for the next build
      Podman.Result rmi = Podman.podman(Duration.ofMinutes(1), "rmi", "--ignore", IMAGE);
      assertThat(rmi.exitCode()).as("podman rmi %s:\n%s", IMAGE, rmi.out()).isZero();
    }
  }

  /** The environment SageMaker would give the container: what the stack deploys. */
  private static Map<String, String> endpointEnvironment() {
    var config = EndpointConfigFile.parse(Path.of("endpoints.yaml"), CONFIG).model("container");
    return AwsEndpointSpec.of(config).containerEnvironment();
  }

  @Test
  void image_labels_declareBidirectionalStreamingAndTheCpuOnnxRuntime() throws Exception {
    Podman.Result labels =
        Podman.podman(
            Duration.ofSeconds(30),
            "image",
            "inspect",
            IMAGE,
            "--format",
            "{{ index .Config.Labels \"com.amazonaws.sagemaker.capabilities.bidirectional-streaming\""
                + " }} {{ index .Config.Labels \"dev.speechscale.onnxruntime\" }}"
                + " {{ index .Config.Labels \"dev.speechscale.engines\" }}");

    assertThat(labels.exitCode()).as("podman image inspect:\n%s", labels.out()).isZero();
    assertThat(labels.out().strip()).isEqualTo("true cpu flite");
  }

  /**
   * Two builds of one commit on one base differ in their digests (the AOT cache layer is trained
   * afresh each time) but carry the same {@code dev.speechscale.content} label, which covers every
   * other layer, the run configuration and whether an AOT cache is present.
   */
  @Test
  void build_twiceFromTheSameCommit_carriesTheSameContentLabel() throws Exception {
    Path root = Path.of("").toAbsolutePath().getParent();
    String again = IMAGE + "-again";
    try {
      Podman.Result build =
          Podman.run(
              List.of("bin/image", "build", "--prebuilt", "--tag", again),
              root,
              Duration.ofMinutes(20));
      assertThat(build.exitCode()).as("bin/image build:\n%s", build.out()).isZero();
      String format = "{{.Id}} {{ index .Config.Labels \"dev.speechscale.content\" }}";
      String first =
          Podman.podman(Duration.ofSeconds(30), "image", "inspect", IMAGE, "--format", format)
              .out()
              .strip();
      String second =
          Podman.podman(Duration.ofSeconds(30), "image", "inspect", again, "--format", format)
              .out()
              .strip();
      System.out.printf("ContainerImageTest: two builds (id content): %s / %s%n", first, second);
      assertThat(first.split(" ")[1])
          .matches("sha256:[0-9a-f]{64}")
          .isEqualTo(second.split(" ")[1]);
    } finally {
      Podman.podman(Duration.ofMinutes(1), "rmi", "--ignore", again);
    }
  }

  @Test
  void serve_asSageMakerRunsIt_servesStreamedAndBufferedWavThenDrainsOnSigterm(@TempDir Path model)
      throws Exception {
    Map<String, String> env = endpointEnvironment();
    assertThat(env).containsEntry("ENGINE", "flite").containsEntry("SEGMENTATION", "sentence");
    writeModelDirectory(model, false);
    String name = "ss-systest-" + UUID.randomUUID().toString().substring(0, 8);
    List<String> run = new ArrayList<>(List.of("run", "-d", "--name", name));
    run.addAll(Podman.RUN_LIMITS);
    run.addAll(List.of("-p", "127.0.0.1::8080", "-v", model + ":/opt/ml/model:ro"));
    env.forEach((k, v) -> run.addAll(List.of("-e", k + "=" + v)));
    run.addAll(List.of(IMAGE, "serve"));
    Process logs = null;
    try {
      long started = System.nanoTime();
      Podman.Result created = Podman.podman(Duration.ofMinutes(1), run.toArray(String[]::new));
      assertThat(created.exitCode()).as("podman run:\n%s", created.out()).isZero();
      logs = new ProcessBuilder("podman", "logs", "-f", name).redirectErrorStream(true).start();
      BlockingQueue<String> lines = Podman.drain(logs);
      List<String> seen = awaitLine(lines, "=== STAGE ready ");
      System.out.printf(
          "ContainerImageTest: podman run -> ready marker in %.2f s%n",
          (System.nanoTime() - started) / 1e9);

      assertStartUp(seen);
      String base = "http://" + hostPort(name);
      HttpResponse<String> ping =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/ping")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(ping.statusCode()).isEqualTo(200);
      assertThat(stats(base)).contains("\"engine\":\"flite\"");
      assertStreamedWav(base);
      assertBufferedWav(base, model.getParent());
      assertWebSocketSession(base);
      assertMetrics(base);
      Podman.Result uid = Podman.podman(Duration.ofSeconds(30), "exec", name, "id", "-u");
      assertThat(uid.out().strip()).as("the server's user id").isNotEqualTo("0").isEqualTo("10001");
      assertStopsOnSigterm(name, lines);
    } finally {
      if (logs != null) {
        logs.destroy();
      }
      remove(name);
    }
  }

  /**
   * SageMaker may run the image with a read-only root file system and mounts the model read-only:
   * the server then writes only to /tmp (ONNX Runtime's unpacked natives, the JVM's perf data). The
   * write probe proves the root file system really is read-only, so the test cannot pass on a
   * writable one.
   */
  @Test
  void serve_readOnlyRootAndModel_servesAndStopsCleanly(@TempDir Path model) throws Exception {
    writeModelDirectory(model, false);
    String name = "ss-systest-ro-" + UUID.randomUUID().toString().substring(0, 8);
    List<String> run =
        new ArrayList<>(List.of("run", "-d", "--name", name, "--read-only", "--tmpfs", "/tmp"));
    run.addAll(Podman.RUN_LIMITS);
    run.addAll(List.of("-p", "127.0.0.1::8080", "-v", model + ":/opt/ml/model:ro"));
    endpointEnvironment().forEach((k, v) -> run.addAll(List.of("-e", k + "=" + v)));
    run.addAll(List.of(IMAGE, "serve"));
    Process logs = null;
    try {
      Podman.Result created = Podman.podman(Duration.ofMinutes(1), run.toArray(String[]::new));
      assertThat(created.exitCode()).as("podman run:\n%s", created.out()).isZero();
      logs = new ProcessBuilder("podman", "logs", "-f", name).redirectErrorStream(true).start();
      BlockingQueue<String> lines = Podman.drain(logs);
      List<String> seen = awaitLine(lines, "=== STAGE ready ");
      assertThat(seen).anyMatch(l -> l.startsWith("speech-server: model directory /opt/ml/model:"));
      Podman.Result probe =
          Podman.podman(
              Duration.ofSeconds(30),
              "exec",
              name,
              "sh",
              "-c",
              "touch /home/speech/probe /opt/ml/model/probe 2>&1; touch /tmp/probe && echo tmp-ok");
      assertThat(probe.out())
          .as("HOME and the model are read-only, /tmp is writable")
          .contains("/home/speech/probe", "/opt/ml/model/probe", "Read-only file system", "tmp-ok");
      String base = "http://" + hostPort(name);
      assertStreamedWav(base);
      assertBufferedWav(base, model.getParent());
      assertStopsOnSigterm(name, lines);
    } finally {
      if (logs != null) {
        logs.destroy();
      }
      remove(name);
    }
  }

  @Test
  void serve_withNoNetwork_warmsUpAndBecomesReady() throws Exception {
    String name = "ss-systest-nonet-" + UUID.randomUUID().toString().substring(0, 8);
    List<String> run = new ArrayList<>(List.of("run", "-d", "--name", name, "--network", "none"));
    run.addAll(Podman.RUN_LIMITS);
    endpointEnvironment().forEach((k, v) -> run.addAll(List.of("-e", k + "=" + v)));
    run.addAll(List.of(IMAGE, "serve"));
    Process logs = null;
    try {
      Podman.Result created = Podman.podman(Duration.ofMinutes(1), run.toArray(String[]::new));
      assertThat(created.exitCode()).as("podman run:\n%s", created.out()).isZero();
      logs = new ProcessBuilder("podman", "logs", "-f", name).redirectErrorStream(true).start();
      List<String> seen = awaitLine(Podman.drain(logs), "=== STAGE ready ");
      assertThat(seen).anyMatch(l -> l.startsWith("=== STAGE warmup_done "));
    } finally {
      if (logs != null) {
        logs.destroy();
      }
      remove(name);
    }
  }

  @Test
  void serve_modelFileNotMatchingItsManifest_stopsBeforeWeightsReady(@TempDir Path model)
      throws Exception {
    writeModelDirectory(model, true);
    String name = "ss-systest-manifest-" + UUID.randomUUID().toString().substring(0, 8);
    List<String> run = new ArrayList<>(List.of("run", "--name", name));
    run.addAll(Podman.RUN_LIMITS);
    run.addAll(List.of("-v", model + ":/opt/ml/model:ro"));
    endpointEnvironment().forEach((k, v) -> run.addAll(List.of("-e", k + "=" + v)));
    run.addAll(List.of(IMAGE, "serve"));
    try {
      Podman.Result r = Podman.podman(Duration.ofMinutes(1), run.toArray(String[]::new));
      assertThat(r.exitCode()).as(r.out()).isEqualTo(1);
      assertThat(r.out())
          .contains("speech-server: MANIFEST.sha256: weights.bin has sha256 ")
          .doesNotContain("=== STAGE weights_ready");
    } finally {
      remove(name);
    }
  }

  /** A model directory with one file and its MANIFEST.sha256, readable by the image's user. */
  private static void writeModelDirectory(Path model, boolean corrupt) throws Exception {
    Path weights = model.resolve("weights.bin");
    Files.writeString(weights, "weights v1\n");
    String hex =
        java.util.HexFormat.of()
            .formatHex(
                java.security.MessageDigest.getInstance("SHA-256")
                    .digest(Files.readAllBytes(weights)));
    Files.writeString(model.resolve("MANIFEST.sha256"), hex + "  weights.bin\n");
    if (corrupt) {
      Files.writeString(weights, "weights v2\n");
    }
    Files.setPosixFilePermissions(model, PosixFilePermissions.fromString("rwxr-xr-x"));
    for (String f : List.of("weights.bin", "MANIFEST.sha256")) {
      Files.setPosixFilePermissions(model.resolve(f), PosixFilePermissions.fromString("rw-r--r--"));
    }
  }

  @Test
  void serve_unknownEngineInEnvironment_stopsStartUpWithAClearLine() throws Exception {
    String name = "ss-systest-bad-" + UUID.randomUUID().toString().substring(0, 8);
    List<String> run = new ArrayList<>(List.of("run", "--name", name));
    run.addAll(Podman.RUN_LIMITS);
    run.addAll(List.of("-e", "ENGINE=piper", IMAGE, "serve"));
    try {
      Podman.Result r = Podman.podman(Duration.ofMinutes(1), run.toArray(String[]::new));
      assertThat(r.exitCode()).as(r.out()).isEqualTo(2);
      assertThat(r.out())
          .contains("speech-server: --engine / ENGINE (piper) must be flite, espeak or kokoro")
          .doesNotContain("listening", "=== STAGE");
    } finally {
      remove(name);
    }
  }

  /**
   * The default image has no espeak-ng: asking it for espeak names the image variant that has it,
   * not an apt-get command no container user can run.
   */
  @Test
  void serve_espeakInTheFliteImage_namesTheImageVariantWithEspeak() throws Exception {
    String name = "ss-systest-noespeak-" + UUID.randomUUID().toString().substring(0, 8);
    List<String> run = new ArrayList<>(List.of("run", "--name", name));
    run.addAll(Podman.RUN_LIMITS);
    run.addAll(List.of("-e", "ENGINE=espeak", IMAGE, "serve"));
    try {
      Podman.Result r = Podman.podman(Duration.ofMinutes(1), run.toArray(String[]::new));
      assertThat(r.exitCode()).as(r.out()).isEqualTo(1);
      assertThat(r.out())
          .contains(
              "cannot load libespeak-ng.so.1",
              "this container's image (engines flite) was built without libespeak-ng1",
              "bin/image build --gpu")
          .doesNotContain("apt-get", "=== STAGE ready");
    } finally {
      remove(name);
    }
  }

  /** Lines up to and including the first that starts with {@code prefix}; fails at EOF/bound. */
  private static List<String> awaitLine(BlockingQueue<String> lines, String prefix)
      throws InterruptedException {
    List<String> seen = new ArrayList<>();
    long deadline = System.nanoTime() + START_BOUND.toNanos();
    while (true) {
      String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (line == null || line.equals(Podman.EOF)) {
        throw new AssertionError(
            "the container never printed '"
                + prefix
                + "' ("
                + (line == null ? "bound " + START_BOUND + " reached" : "its output ended")
                + "); it printed:\n"
                + String.join("\n", seen));
      }
      seen.add(line);
      if (line.startsWith(prefix)) {
        return seen;
      }
    }
  }

  private static String hostPort(String name) throws Exception {
    Podman.Result port = Podman.podman(Duration.ofSeconds(30), "port", name, "8080/tcp");
    assertThat(port.exitCode()).as(port.out()).isZero();
    return port.out().strip().lines().findFirst().orElseThrow();
  }

  private String stats(String base) throws IOException, InterruptedException {
    return http.send(
            HttpRequest.newBuilder(URI.create(base + "/stats")).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private HttpResponse<byte[]> invoke(String base, boolean stream)
      throws IOException, InterruptedException {
    String body =
        "{\"text\":\"The container serves this sentence. And this second one as well.\","
            + "\"stream\":"
            + stream
            + "}";
    return http.send(
        HttpRequest.newBuilder(URI.create(base + "/invocations"))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  /** The manifest line before weights_ready, then the four stage markers in order. */
  private static void assertStartUp(List<String> seen) {
    assertThat(seen)
        .as("the manifest is checked before weights_ready")
        .containsSubsequence(
            "speech-server: model directory /opt/ml/model: 1 files (11 bytes) match"
                + " MANIFEST.sha256",
            seen.stream()
                .filter(l -> l.startsWith("=== STAGE weights_ready "))
                .findFirst()
                .orElse("(no weights_ready)"));
    assertThat(seen.stream().filter(l -> STAGE.matcher(l).matches()))
        .extracting(l -> l.split(" ")[2])
        .containsExactly("framework_init", "weights_ready", "warmup_done", "ready");
  }

  /** Chunked, no Content-Length, a header whose sizes are 0xFFFFFFFF, then PCM. */
  /**
   * The image's /metrics carries the process metrics, which read {@code com.sun.management} beans:
   * they vanish if the jlink'ed runtime lacks {@code jdk.management}.
   */
  private void assertMetrics(String base) throws Exception {
    HttpResponse<String> metrics =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body())
        .containsPattern("(?m)^speech_server_responses_total\\{code=\"200\",transport=\"http\"} ")
        .containsPattern("(?m)^process_cpu_seconds_total \\d")
        .containsPattern("(?m)^process_open_fds \\d")
        .containsPattern("(?m)^jvm_memory_used_bytes\\{area=\"heap\"} \\d");
  }

  private void assertStreamedWav(String base) throws Exception {
    HttpResponse<byte[]> streamed = invoke(base, true);
    assertThat(streamed.statusCode()).isEqualTo(200);
    assertThat(streamed.headers().firstValue("content-length")).isEmpty();
    ByteBuffer s = ByteBuffer.wrap(streamed.body()).order(ByteOrder.LITTLE_ENDIAN);
    assertWavHeader(s);
    assertThat(s.getInt(4)).as("streaming RIFF size").isEqualTo(-1);
    assertThat(s.getInt(40)).as("streaming data size").isEqualTo(-1);
    assertThat(streamed.body().length - 44).as("PCM bytes").isGreaterThan(16_000);
  }

  /** Real sizes, X-Audio-Duration matching the samples, and sox agreeing when it is installed. */
  private void assertBufferedWav(String base, Path scratch) throws Exception {
    HttpResponse<byte[]> buffered = invoke(base, false);
    assertThat(buffered.statusCode()).isEqualTo(200);
    byte[] wav = buffered.body();
    ByteBuffer b = ByteBuffer.wrap(wav).order(ByteOrder.LITTLE_ENDIAN);
    assertWavHeader(b);
    assertThat(b.getInt(4)).as("RIFF size").isEqualTo(wav.length - 8);
    assertThat(b.getInt(40)).as("data size").isEqualTo(wav.length - 44);
    double seconds = (wav.length - 44) / 2.0 / 16_000;
    assertThat(Double.parseDouble(buffered.headers().firstValue("x-audio-duration").orElseThrow()))
        .isCloseTo(seconds, org.assertj.core.data.Offset.offset(0.002));
    soxDuration(wav, scratch)
        .ifPresent(
            d -> assertThat(d).isCloseTo(seconds, org.assertj.core.data.Offset.offset(0.01)));
  }

  /**
   * {@code podman stop -t 30}: SIGTERM, then SIGKILL after SageMaker's 30 s. The server must drain
   * and exit by itself: exit 0 (a clean stop; not 143, the JVM dying of the signal, nor 137) and
   * its last line.
   */
  private static void assertStopsOnSigterm(String name, BlockingQueue<String> lines)
      throws Exception {
    Podman.Result stop = Podman.podman(Duration.ofSeconds(60), "stop", "-t", "30", name);
    assertThat(stop.exitCode()).as(stop.out()).isZero();
    assertThat(awaitLine(lines, "speech-server stopped")).isNotEmpty();
    Podman.Result exit =
        Podman.podman(Duration.ofSeconds(30), "inspect", name, "--format", "{{.State.ExitCode}}");
    assertThat(exit.out().strip()).as("exit code after SIGTERM").isEqualTo("0");
  }

  /**
   * One utterance over {@code /invocations-bidirectional-stream}: synthesis_start, PCM frames,
   * synthesis_complete with the duration the frames hold.
   */
  private void assertWebSocketSession(String base) throws Exception {
    BlockingQueue<Object> frames = new java.util.concurrent.LinkedBlockingQueue<>();
    java.net.http.WebSocket.Listener listener =
        new java.net.http.WebSocket.Listener() {
          private final StringBuilder text = new StringBuilder();
          private final java.io.ByteArrayOutputStream binary = new java.io.ByteArrayOutputStream();

          @Override
          public java.util.concurrent.CompletionStage<?> onText(
              java.net.http.WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
              frames.add(text.toString());
              text.setLength(0);
            }
            ws.request(1);
            return null;
          }

          @Override
          public java.util.concurrent.CompletionStage<?> onBinary(
              java.net.http.WebSocket ws, ByteBuffer data, boolean last) {
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            binary.writeBytes(bytes);
            if (last) {
              frames.add(binary.toByteArray());
              binary.reset();
            }
            ws.request(1);
            return null;
          }
        };
    java.net.http.WebSocket ws =
        http.newWebSocketBuilder()
            .buildAsync(
                URI.create(base.replace("http://", "ws://") + "/invocations-bidirectional-stream"),
                listener)
            .get(30, TimeUnit.SECONDS);
    try {
      ws.sendText("{\"text\":\"Hello over the socket.\",\"request_id\":\"ws-1\"}", true)
          .get(30, TimeUnit.SECONDS);
      List<Object> got = new ArrayList<>();
      long pcmBytes = 0;
      while (true) {
        Object f = frames.poll(60, TimeUnit.SECONDS);
        assertThat(f).as("a WebSocket frame after %s", got).isNotNull();
        got.add(f);
        if (f instanceof byte[] pcm) {
          pcmBytes += pcm.length;
        } else if (f.toString().contains("\"synthesis_complete\"")
            || f.toString().contains("\"error\"")) {
          break;
        }
      }
      assertThat(got.getFirst().toString()).contains("\"type\":\"synthesis_start\"", "ws-1");
      String done = got.getLast().toString();
      assertThat(done).contains("\"type\":\"synthesis_complete\"");
      double reported =
          Double.parseDouble(done.replaceAll(".*\"total_duration_s\":([0-9.]+).*", "$1"));
      assertThat(pcmBytes).isGreaterThan(8_000);
      assertThat(reported)
          .isCloseTo(pcmBytes / 2.0 / 16_000, org.assertj.core.data.Offset.offset(0.01));
      ws.sendText("{\"type\":\"close\"}", true).get(30, TimeUnit.SECONDS);
    } finally {
      ws.abort();
    }
  }

  /** RIFF/WAVE, PCM, mono, 16 kHz, 16-bit: Flite's output. */
  private static void assertWavHeader(ByteBuffer wav) {
    assertThat(wav.limit()).isGreaterThan(44);
    assertThat(new String(wav.array(), 0, 4, java.nio.charset.StandardCharsets.US_ASCII))
        .isEqualTo("RIFF");
    assertThat(new String(wav.array(), 8, 8, java.nio.charset.StandardCharsets.US_ASCII))
        .isEqualTo("WAVEfmt ");
    assertThat(wav.getShort(20)).as("PCM").isEqualTo((short) 1);
    assertThat(wav.getShort(22)).as("channels").isEqualTo((short) 1);
    assertThat(wav.getInt(24)).as("sample rate").isEqualTo(16_000);
    assertThat(wav.getShort(34)).as("bits").isEqualTo((short) 16);
    assertThat(new String(wav.array(), 36, 4, java.nio.charset.StandardCharsets.US_ASCII))
        .isEqualTo("data");
  }

  /** sox's reading of the file's duration, when sox is installed. */
  private static Optional<Double> soxDuration(byte[] wav, Path dir) throws Exception {
    if (!Podman.onPath("sox")) {
      System.out.println("ContainerImageTest: sox not installed; WAV checked by its header only");
      return Optional.empty();
    }
    Path f = Files.createTempFile(dir, "container", ".wav");
    try {
      Files.write(f, wav);
      Podman.Result r =
          Podman.run(List.of("sox", "--i", "-D", f.toString()), null, Duration.ofSeconds(30));
      assertThat(r.exitCode()).as("sox --i:\n%s", r.out()).isZero();
      return Optional.of(Double.parseDouble(r.out().strip()));
    } finally {
      Files.deleteIfExists(f);
    }
  }

  private static void remove(String name) throws Exception {
    Podman.Result rm = Podman.podman(Duration.ofMinutes(1), "rm", "-f", "--ignore", name);
    assertThat(rm.exitCode()).as("podman rm -f %s:\n%s", name, rm.out()).isZero();
  }
}
