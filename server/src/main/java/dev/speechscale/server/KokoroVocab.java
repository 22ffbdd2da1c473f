package dev.speechscale.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Kokoro's IPA-symbol → token-id table. It is read from the {@code vocab} object of a {@code
 * config.json} (as hexgrad/Kokoro-82M publishes it) or from {@code model.vocab} of a {@code
 * tokenizer.json} (as the ONNX export onnx-community/Kokoro-82M-v1.0-ONNX publishes it, whose
 * {@code config.json} holds only {@code model_type}); a config without either is completed from the
 * {@code tokenizer.json} beside it. Symbols missing from the table are dropped, as Kokoro's own
 * tokenizer does.
 */
final class KokoroVocab {
  /** Token 0 pads both ends of every input. */
  static final long PAD = 0;

  private final Map<Integer, Long> ids;

  private KokoroVocab(Map<Integer, Long> ids) {
    this.ids = ids;
  }

  static KokoroVocab read(Path configJson) {
    JsonNode root;
    try {
      root = JsonMapper.builder().build().readTree(Files.readString(configJson));
    } catch (IOException | JacksonException e) {
      throw new EngineException(
          "cannot read Kokoro config "
              + configJson
              + ": "
              + (e instanceof IOException io ? IoReasons.of(io) : e.getMessage())
              + "; pass --kokoro-config with the config.json published beside the model",
          e);
    }
    JsonNode vocab = vocabOf(root);
    if (vocab == null) {
      Path tokenizer = configJson.toAbsolutePath().resolveSibling("tokenizer.json");
      if (!configJson.getFileName().toString().equals("tokenizer.json")
          && Files.isRegularFile(tokenizer)) {
        return read(tokenizer);
      }
      throw new EngineException(
          "Kokoro config "
              + configJson
              + " has no non-empty \"vocab\" object (symbol -> id), neither at the top (config.json"
              + " of hexgrad/Kokoro-82M) nor as model.vocab (tokenizer.json of the ONNX export), and"
              + " no tokenizer.json beside it; pass --kokoro-config with the file that has it");
    }
    Map<Integer, Long> ids = new HashMap<>();
    for (var entry : vocab.properties()) {
      String symbol = entry.getKey();
      if (symbol.codePointCount(0, symbol.length()) != 1 || !entry.getValue().canConvertToLong()) {
        throw new EngineException(
            "Kokoro vocab entry \""
                + symbol
                + "\": "
                + entry.getValue()
                + " must map one symbol to an integer id");
      }
      ids.put(symbol.codePointAt(0), entry.getValue().asLong());
    }
    return new KokoroVocab(ids);
  }

  /** The non-empty vocab object, at the top or under model; null when there is none. */
  private static @Nullable JsonNode vocabOf(JsonNode root) {
    for (JsonNode candidate : new JsonNode[] {root.get("vocab"), root.path("model").get("vocab")}) {
      if (candidate != null && candidate.isObject() && !candidate.isEmpty()) {
        return candidate;
      }
    }
    return null;
  }

  /** Token ids for an IPA string, unknown symbols dropped. */
  long[] encode(String ipa) {
    return ipa.codePoints()
        .mapToObj(ids::get)
        .filter(java.util.Objects::nonNull)
        .mapToLong(Long::longValue)
        .toArray();
  }

  /** The id of a space, used to cut long inputs at word boundaries; -1 when absent. */
  long spaceId() {
    return ids.getOrDefault((int) ' ', -1L);
  }
}
