package dev.speechscale.server;

import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtProvider;
import ai.onnxruntime.OrtSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which ONNX Runtime execution provider runs the Kokoro model: CUDA when the runtime build offers
 * it and a GPU is visible, CPU otherwise, or what {@code ONNX_PROVIDER} demands. The decision is a
 * pure function of three facts ({@link #choose}); an explicit {@code cuda} that cannot be honoured
 * stops start-up rather than quietly running on the CPU of a GPU instance.
 */
final class OnnxProviders {
  private OnnxProviders() {}

  /** {@code --onnx-provider} / {@code ONNX_PROVIDER}. */
  enum Setting {
    AUTO,
    CPU,
    CUDA;

    static Setting parse(String value) {
      return switch (value.strip().toLowerCase(Locale.ROOT)) {
        case "auto" -> AUTO;
        case "cpu" -> CPU;
        case "cuda" -> CUDA;
        default ->
            throw new UsageException(
                "--onnx-provider / ONNX_PROVIDER ('"
                    + value
                    + "') must be auto, cpu or cuda (auto: CUDA when the image has the GPU build"
                    + " and a GPU is visible, else CPU)");
      };
    }

    String cliName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The provider a session is created with. */
  enum Provider {
    CPU,
    CUDA
  }

  /**
   * Whether a GPU is visible to this process.
   *
   * @param visible a device node or the NVIDIA container runtime's variable names one
   * @param evidence what was looked at, for the start-up log line
   */
  record Gpu(boolean visible, String evidence) {
    /**
     * Looks at {@code /dev/nvidia0} and {@code NVIDIA_VISIBLE_DEVICES} (set by the NVIDIA container
     * runtime, as on SageMaker GPU instances; {@code void} and {@code none} mean no device).
     */
    static Gpu probe(Path devices, Map<String, String> env) {
      boolean node = Files.exists(devices.resolve("nvidia0"));
      String variable = env.get("NVIDIA_VISIBLE_DEVICES");
      boolean named =
          variable != null
              && !variable.isBlank()
              && !variable.strip().equals("void")
              && !variable.strip().equals("none");
      String evidence =
          (node ? devices.resolve("nvidia0") + " present" : "no " + devices.resolve("nvidia0"))
              + ", NVIDIA_VISIBLE_DEVICES "
              + (variable == null ? "unset" : "'" + variable + "'");
      return new Gpu(node || named, evidence);
    }
  }

  /**
   * The decision and why, as logged at start.
   *
   * @param provider the provider to register
   * @param reason one line: the setting, what the build offers, what the GPU probe found
   */
  record Choice(Provider provider, String reason) {}

  /**
   * Chooses the provider.
   *
   * @param setting {@code ONNX_PROVIDER}
   * @param available what the ONNX Runtime build offers ({@code
   *     OrtEnvironment.getAvailableProviders()})
   * @param gpu what the GPU probe found
   * @throws EngineException when {@code cuda} is demanded and the build or the machine lacks it
   */
  static Choice choose(Setting setting, Set<OrtProvider> available, Gpu gpu) {
    boolean built = available.contains(OrtProvider.CUDA);
    String facts =
        "this ONNX Runtime build offers "
            + new TreeSet<>(available.stream().map(OrtProvider::getName).toList())
            + "; GPU "
            + (gpu.visible() ? "visible" : "not visible")
            + " ("
            + gpu.evidence()
            + ")";
    String because = "ONNX_PROVIDER=" + setting.cliName() + "; " + facts;
    return switch (setting) {
      case CPU -> new Choice(Provider.CPU, because);
      case CUDA -> {
        if (!built) {
          throw new EngineException(
              "ONNX_PROVIDER=cuda but "
                  + facts
                  + ": this is the CPU build of ONNX Runtime; run the GPU image (bin/image build"
                  + " --gpu) or set ONNX_PROVIDER=auto or cpu");
        }
        if (!gpu.visible()) {
          throw new EngineException(
              "ONNX_PROVIDER=cuda but "
                  + facts
                  + ": run on a GPU instance (ml.g*/ml.p*) with the NVIDIA container runtime, or"
                  + " set ONNX_PROVIDER=auto or cpu");
        }
        yield new Choice(Provider.CUDA, because);
      }
      case AUTO -> new Choice(built && gpu.visible() ? Provider.CUDA : Provider.CPU, because);
    };
  }

  /**
   * Registers the chosen provider on the session options. CUDA that was chosen but cannot load (the
   * CUDA 12 / cuDNN 9 libraries missing from the image) stops start-up: a GPU instance must not
   * serve from its CPU unnoticed.
   */
  static void apply(Choice choice, OrtSession.SessionOptions options) {
    if (choice.provider() == Provider.CPU) {
      return;
    }
    try {
      options.addCUDA(0);
    } catch (OrtException | RuntimeException e) {
      throw new EngineException(
          "the CUDA execution provider was chosen ("
              + choice.reason()
              + ") but cannot load: "
              + e.getMessage()
              + "; the image needs the CUDA 12 runtime and cuDNN 9 libraries on its library path"
              + " (server/README.md, GPU image), or set ONNX_PROVIDER=cpu",
          e);
    }
  }
}
