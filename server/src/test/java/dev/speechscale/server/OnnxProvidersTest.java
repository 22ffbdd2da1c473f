package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OnnxProvidersTest {
  private static final Set<OrtProvider> CPU_BUILD = EnumSet.of(OrtProvider.CPU);
  private static final Set<OrtProvider> GPU_BUILD =
      EnumSet.of(OrtProvider.CPU, OrtProvider.CUDA, OrtProvider.TENSOR_RT);
  private static final OnnxProviders.Gpu GPU = new OnnxProviders.Gpu(true, "/dev/nvidia0 present");
  private static final OnnxProviders.Gpu NO_GPU = new OnnxProviders.Gpu(false, "no /dev/nvidia0");

  @Test
  void choose_autoWithGpuBuildAndGpu_isCuda() {
    OnnxProviders.Choice choice = OnnxProviders.choose(OnnxProviders.Setting.AUTO, GPU_BUILD, GPU);

    assertThat(choice.provider()).isEqualTo(OnnxProviders.Provider.CUDA);
    assertThat(choice.reason())
        .contains("ONNX_PROVIDER=auto")
        .contains("CUDAExecutionProvider")
        .contains("GPU visible");
  }

  @Test
  void choose_autoWithGpuBuildAndNoGpu_isCpuSayingNoGpu() {
    OnnxProviders.Choice choice =
        OnnxProviders.choose(OnnxProviders.Setting.AUTO, GPU_BUILD, NO_GPU);

    assertThat(choice.provider()).isEqualTo(OnnxProviders.Provider.CPU);
    assertThat(choice.reason()).contains("GPU not visible").contains("no /dev/nvidia0");
  }

  @Test
  void choose_autoWithCpuBuildAndGpu_isCpuNamingTheBuild() {
    OnnxProviders.Choice choice = OnnxProviders.choose(OnnxProviders.Setting.AUTO, CPU_BUILD, GPU);

    assertThat(choice.provider()).isEqualTo(OnnxProviders.Provider.CPU);
    assertThat(choice.reason()).contains("offers [CPUExecutionProvider]");
  }

  @Test
  void choose_cpuWithGpuBuildAndGpu_isCpu() {
    OnnxProviders.Choice choice = OnnxProviders.choose(OnnxProviders.Setting.CPU, GPU_BUILD, GPU);

    assertThat(choice.provider()).isEqualTo(OnnxProviders.Provider.CPU);
    assertThat(choice.reason()).startsWith("ONNX_PROVIDER=cpu");
  }

  @Test
  void choose_cudaWithGpuBuildAndGpu_isCuda() {
    assertThat(OnnxProviders.choose(OnnxProviders.Setting.CUDA, GPU_BUILD, GPU).provider())
        .isEqualTo(OnnxProviders.Provider.CUDA);
  }

  @Test
  void choose_cudaWithCpuBuild_stopsNamingTheBuildAndTheFix() {
    assertThatThrownBy(() -> OnnxProviders.choose(OnnxProviders.Setting.CUDA, CPU_BUILD, GPU))
        .isInstanceOf(EngineException.class)
        .hasMessageContaining("ONNX_PROVIDER=cuda")
        .hasMessageContaining("CPU build of ONNX Runtime")
        .hasMessageContaining("bin/image build --gpu");
  }

  @Test
  void choose_cudaWithGpuBuildAndNoGpu_stopsNamingTheProbeAndTheFix() {
    assertThatThrownBy(() -> OnnxProviders.choose(OnnxProviders.Setting.CUDA, GPU_BUILD, NO_GPU))
        .isInstanceOf(EngineException.class)
        .hasMessageContaining("GPU not visible (no /dev/nvidia0)")
        .hasMessageContaining("ONNX_PROVIDER=auto or cpu");
  }

  @Test
  void parse_unknownValue_isRefusedListingTheChoices() {
    assertThatThrownBy(() -> OnnxProviders.Setting.parse("rocm"))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("'rocm'")
        .hasMessageContaining("auto, cpu or cuda");
    assertThat(OnnxProviders.Setting.parse(" CUDA ")).isEqualTo(OnnxProviders.Setting.CUDA);
  }

  @Test
  void probe_deviceNode_isVisible(@TempDir Path dev) throws Exception {
    Files.createFile(dev.resolve("nvidia0"));

    OnnxProviders.Gpu gpu = OnnxProviders.Gpu.probe(dev, Map.of());

    assertThat(gpu.visible()).isTrue();
    assertThat(gpu.evidence()).contains("nvidia0 present").contains("unset");
  }

  @Test
  void probe_containerRuntimeVariable_isVisibleUnlessVoidOrNone(@TempDir Path dev) {
    assertThat(OnnxProviders.Gpu.probe(dev, Map.of("NVIDIA_VISIBLE_DEVICES", "all")).visible())
        .isTrue();
    assertThat(OnnxProviders.Gpu.probe(dev, Map.of("NVIDIA_VISIBLE_DEVICES", "void")).visible())
        .isFalse();
    assertThat(OnnxProviders.Gpu.probe(dev, Map.of("NVIDIA_VISIBLE_DEVICES", "none")).visible())
        .isFalse();
    assertThat(OnnxProviders.Gpu.probe(dev, Map.of("NVIDIA_VISIBLE_DEVICES", "")).visible())
        .isFalse();
    assertThat(OnnxProviders.Gpu.probe(dev, Map.of()).visible()).isFalse();
  }

  /** The real fallback: this machine's ONNX Runtime is the CPU build and there is no GPU. */
  @Test
  void kokoro_autoOnThisMachine_runsOnCpuAndSynthesizes(@TempDir Path dir) throws Exception {
    assertThat(OrtEnvironment.getAvailableProviders()).doesNotContain(OrtProvider.CUDA);
    var files = KokoroStandIn.write(dir);

    try (KokoroEngine engine =
        new KokoroEngine(
            files.model(),
            files.config(),
            List.of(files.voices()),
            (t, l) -> "abc",
            OnnxProviders.Setting.AUTO)) {
      assertThat(engine.executionProvider()).isEqualTo(OnnxProviders.Provider.CPU);
      long samples = Synthesized.samples(engine, "x", "af_heart");
      assertThat(samples).isEqualTo(5L * KokoroStandIn.SAMPLES_PER_TOKEN);
    }
  }

  @Test
  void kokoro_cudaOnThisMachine_stopsStartUpNamingTheCpuBuild(@TempDir Path dir) throws Exception {
    var files = KokoroStandIn.write(dir);

    assertThatThrownBy(() ->
            new KokoroEngine(
                files.model(),
                files.config(),
                List.of(files.voices()),
                (t, l) -> "abc",
                OnnxProviders.Setting.CUDA))
        .isInstanceOf(EngineException.class)
        .hasMessageContaining("CPU build of ONNX Runtime");
  }

  @Test
  void config_onnxProviderUnderFlite_isRefusedNamingTheVariable() {
    assertThatThrownBy(
            () -> ServerConfig.parse(List.of("--port", "0"), Map.of("ONNX_PROVIDER", "cuda")))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("ONNX_PROVIDER is set but the engine is flite");
  }

  @Test
  void config_onnxProviderUnderKokoro_isParsedAndDefaultsToAuto(@TempDir Path dir)
      throws Exception {
    var files = KokoroStandIn.write(dir);
    Map<String, String> env =
        Map.of(
            "ENGINE", "kokoro",
            "KOKORO_MODEL", files.model().toString(),
            "KOKORO_VOICES", files.voices().toString());

    assertThat(ServerConfig.parse(List.of("--port", "0"), env, dir).onnxProvider())
        .isEqualTo(OnnxProviders.Setting.AUTO);
    Map<String, String> cuda = new java.util.HashMap<>(env);
    cuda.put("ONNX_PROVIDER", "cuda");
    assertThat(ServerConfig.parse(List.of("--port", "0"), cuda, dir).onnxProvider())
        .isEqualTo(OnnxProviders.Setting.CUDA);
  }
}
