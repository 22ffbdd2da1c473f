package dev.speechscale.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a stand-in Kokoro model directory: an ONNX graph with Kokoro's exact signature ({@code
 * input_ids} int64[1,T], {@code style} float32[1,256], {@code speed} float32[1] → {@code waveform}
 * float32[N]), a {@code config.json} with a small IPA {@code vocab}, and voice files in the
 * kokoro-js layout.
 *
 * <p>The graph makes real, checkable audio: each token becomes {@code ceil(240 / speed)} samples
 * of a tone whose pitch depends on the token id, with an amplitude set by the style vector's mean,
 * so output length is proportional to the token count and inversely to speed.
 */
final class KokoroStandIn {
  static final int SAMPLES_PER_TOKEN = 240;

  private KokoroStandIn() {}

  record Files_(Path model, Path config, Path voices) {}

  static Files_ write(Path dir) throws IOException {
    Path model = dir.resolve("kokoro-standin.onnx");
    Files.write(model, model(true));
    Path config = dir.resolve("config.json");
    Files.writeString(config, configJson());
    Path voices = Files.createDirectories(dir.resolve("voices"));
    writeVoice(voices.resolve("af_heart.bin"), 0.5f);
    writeVoice(voices.resolve("bm_lewis.bin"), 1.0f);
    return new Files_(model, config, voices);
  }

  /** The vocab: every IPA symbol espeak-ng emits for English, plus space and stress marks. */
  static String configJson() {
    String symbols = " ;:,.!?-\"()abcdefhijklmnopqrstuvwxyzɑɐɒæβɔɕçɖðʤəɚɛɜɝɞɟʄɡɠɢʛɦɧħɥʜɨɪʝɭɬɫɮʟɱɯɰŋɳɲɴøɵɸθœɶʘɹɺɾɻʀʁɽʂʃʈʧʉʊʋⱱʌɣɤʍχʎʏʑʐʒʔʡʕʢǀǁǂǃˈˌːˑʼʴʰʱʲʷˠˤ˞↓↑→↗↘ᵻ";
    StringBuilder vocab = new StringBuilder("{\"model\":\"stand-in\",\"vocab\":{");
    int id = 1;
    int[] cps = symbols.codePoints().toArray();
    for (int i = 0; i < cps.length; i++) {
      String s = new String(cps, i, 1);
      if (i > 0) {
        vocab.append(',');
      }
      vocab.append('"').append(s.equals("\"") ? "\\\"" : s).append("\":").append(id++);
    }
    return vocab.append("}}").toString();
  }

  static void writeVoice(Path file, float level) throws IOException {
    ByteBuffer b =
        ByteBuffer.allocate((int) KokoroVoices.FILE_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (int row = 0; row < KokoroVoices.ROWS; row++) {
      for (int col = 0; col < KokoroVoices.STYLE_DIM; col++) {
        b.putFloat(level);
      }
    }
    Files.write(file, b.array());
  }

  /** The ONNX model bytes; {@code kokoroNames=false} renames the output (a wrong signature). */
  static byte[] model(boolean kokoroNames) {
    List<OnnxWriter> nodes = new ArrayList<>();
    nodes.add(OnnxWriter.node("Cast", new String[] {"input_ids"}, "ids_f", OnnxWriter.intAttribute("to", OnnxWriter.FLOAT)));
    nodes.add(OnnxWriter.node("Reshape", new String[] {"ids_f", "col_shape"}, "ids_col"));
    nodes.add(OnnxWriter.node("Div", new String[] {"per_token", "speed"}, "reps_f"));
    nodes.add(OnnxWriter.node("Ceil", new String[] {"reps_f"}, "reps_c"));
    nodes.add(OnnxWriter.node("Cast", new String[] {"reps_c"}, "reps_i", OnnxWriter.intAttribute("to", OnnxWriter.INT64)));
    nodes.add(OnnxWriter.node("Concat", new String[] {"one", "reps_i"}, "repeats", OnnxWriter.intAttribute("axis", 0)));
    nodes.add(OnnxWriter.node("Tile", new String[] {"ids_col", "repeats"}, "tiled"));
    nodes.add(OnnxWriter.node("Reshape", new String[] {"tiled", "flat_shape"}, "flat"));
    nodes.add(OnnxWriter.node("Mul", new String[] {"flat", "pitch_step"}, "pitch"));
    nodes.add(OnnxWriter.node("Add", new String[] {"pitch", "base_pitch"}, "freq"));
    nodes.add(OnnxWriter.node("CumSum", new String[] {"freq", "axis0"}, "phase"));
    nodes.add(OnnxWriter.node("Sin", new String[] {"phase"}, "tone"));
    nodes.add(OnnxWriter.node("ReduceMean", new String[] {"style"}, "level", OnnxWriter.intAttribute("keepdims", 0)));
    nodes.add(OnnxWriter.node("Mul", new String[] {"level", "gain"}, "amp"));
    String out = kokoroNames ? "waveform" : "audio";
    nodes.add(OnnxWriter.node("Mul", new String[] {"tone", "amp"}, out));

    OnnxWriter graph = new OnnxWriter();
    nodes.forEach(n -> graph.message(1, n));
    graph.string(2, "kokoro_stand_in");
    graph.message(5, OnnxWriter.int64Tensor("col_shape", new long[] {2}, -1, 1));
    graph.message(5, OnnxWriter.int64Tensor("flat_shape", new long[] {1}, -1));
    graph.message(5, OnnxWriter.int64Tensor("one", new long[] {1}, 1));
    graph.message(5, OnnxWriter.int64Tensor("axis0", new long[] {}, 0));
    graph.message(5, OnnxWriter.floatTensor("per_token", new long[] {1}, SAMPLES_PER_TOKEN));
    graph.message(5, OnnxWriter.floatTensor("pitch_step", new long[] {}, 0.002f));
    graph.message(5, OnnxWriter.floatTensor("base_pitch", new long[] {}, 0.05f));
    graph.message(5, OnnxWriter.floatTensor("gain", new long[] {}, 0.6f));
    graph.message(11, OnnxWriter.valueInfo("input_ids", OnnxWriter.INT64, 1L, "T"));
    graph.message(11, OnnxWriter.valueInfo("style", OnnxWriter.FLOAT, 1L, 256L));
    graph.message(11, OnnxWriter.valueInfo("speed", OnnxWriter.FLOAT, 1L));
    graph.message(12, OnnxWriter.valueInfo(out, OnnxWriter.FLOAT, "N"));

    OnnxWriter opset = new OnnxWriter().string(1, "").varint(2, 13);
    return new OnnxWriter()
        .varint(1, 7)
        .string(2, "speechscale-tests")
        .message(7, graph)
        .message(8, opset)
        .bytes();
  }
}
