package dev.speechscale.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The model directory ({@code /opt/ml/model} on SageMaker, {@code MODEL_DIR} elsewhere): where the
 * Kokoro files are found when they are not named one by one, and the {@code MANIFEST.sha256} that
 * is checked before {@code weights_ready}.
 *
 * <p>Kokoro layout, as the public ONNX export of Kokoro-82M (onnx-community/Kokoro-82M-v1.0-ONNX)
 * publishes it: the model at {@code onnx/model.onnx} (else the one {@code *.onnx} in {@code onnx/}
 * or at the top), the vocabulary in {@code tokenizer.json} ({@code model.vocab}) or in {@code
 * config.json} ({@code vocab}), and {@code voices/*.bin}.
 *
 * @param dir the directory
 */
record ModelDirectory(Path dir) {
  /** Where SageMaker puts the model data. */
  static final Path SAGEMAKER = Path.of("/opt/ml/model");

  static final String MANIFEST = "MANIFEST.sha256";

  private static final Pattern LINE = Pattern.compile("([0-9a-fA-F]{64}) [ *](.+)");

  /** The Kokoro files this directory holds, in the published layout. */
  record KokoroFiles(Path model, Path config, Path voices) {}

  KokoroFiles kokoro() {
    Path model = dir.resolve("onnx").resolve("model.onnx");
    if (!Files.isRegularFile(model)) {
      List<Path> found = onnxFiles(dir.resolve("onnx"));
      if (found.isEmpty()) {
        found = onnxFiles(dir);
      }
      if (found.size() != 1) {
        throw new UsageException(
            "ENGINE=kokoro and no KOKORO_MODEL: the model directory "
                + dir
                + " has "
                + (found.isEmpty() ? "no .onnx model" : found.size() + " .onnx files " + found)
                + "; expected the Kokoro-82M ONNX export's layout (onnx/model.onnx, config.json,"
                + " voices/*.bin; the vocab in tokenizer.json or config.json) or set KOKORO_MODEL"
                + " to the file to load");
      }
      model = found.getFirst();
    }
    // config.json first: KokoroVocab completes one without a vocab from tokenizer.json beside it
    Path config = dir.resolve("config.json");
    if (!Files.isRegularFile(config)) {
      config = dir.resolve("tokenizer.json");
    }
    Path voices = dir.resolve("voices");
    if (!Files.isRegularFile(config) || !Files.isDirectory(voices)) {
      throw new UsageException(
          "ENGINE=kokoro: the model directory "
              + dir
              + " lacks "
              + (Files.isRegularFile(config) ? "voices/" : "tokenizer.json and config.json")
              + " (the layout is onnx/model.onnx, tokenizer.json or config.json with the vocab,"
              + " voices/*.bin); add it or set KOKORO_CONFIG / KOKORO_VOICES");
    }
    return new KokoroFiles(model, config, voices);
  }

  private static List<Path> onnxFiles(Path in) {
    if (!Files.isDirectory(in)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(in)) {
      return files.filter(f -> f.toString().endsWith(".onnx")).sorted().toList();
    } catch (IOException e) {
      throw new EngineException("cannot list " + in + ": " + e.getMessage(), e);
    }
  }

  /** What a manifest check found: the files and bytes verified, or that there is no manifest. */
  record Verified(int files, long bytes) {}

  /**
   * Checks every file {@code MANIFEST.sha256} lists ({@code sha256sum} output: hex, two spaces or
   * space-star, path relative to the directory).
   *
   * @return empty when the directory has no manifest
   * @throws EngineException naming the first file that is missing, outside the directory or whose
   *     digest differs
   */
  Optional<Verified> verifyManifest() {
    Path manifest = dir.resolve(MANIFEST);
    if (!Files.isRegularFile(manifest)) {
      return Optional.empty();
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(manifest, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new EngineException("cannot read " + manifest + ": " + IoReasons.of(e), e);
    }
    int files = 0;
    long bytes = 0;
    Path root = dir.toAbsolutePath().normalize();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      Matcher m = LINE.matcher(line);
      if (!m.matches()) {
        throw new EngineException(
            manifest
                + " line "
                + (i + 1)
                + " ('"
                + line
                + "') is not '<64 hex> <space><space>path' as sha256sum writes it; regenerate it"
                + " with: cd "
                + dir
                + " && find . -type f ! -name "
                + MANIFEST
                + " -print0 | xargs -0 sha256sum > "
                + MANIFEST);
      }
      Path file = root.resolve(m.group(2)).normalize();
      if (!file.startsWith(root) || !Files.isRegularFile(file)) {
        throw new EngineException(
            MANIFEST
                + " lists "
                + m.group(2)
                + ", which is "
                + (file.startsWith(root) ? "missing from " : "outside ")
                + dir
                + "; the model directory is incomplete or not the pinned revision: sync it again");
      }
      String actual = sha256(file);
      if (!actual.equalsIgnoreCase(m.group(1))) {
        throw new EngineException(
            MANIFEST
                + ": "
                + m.group(2)
                + " has sha256 "
                + actual
                + " but the manifest says "
                + m.group(1).toLowerCase(java.util.Locale.ROOT)
                + "; the file is corrupt or from another revision: sync the model directory again");
      }
      files++;
      try {
        bytes += Files.size(file);
      } catch (IOException e) {
        throw new EngineException("cannot read " + file + ": " + IoReasons.of(e), e);
      }
    }
    return Optional.of(new Verified(files, bytes));
  }

  private static String sha256(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[1 << 16];
      int n;
      while ((n = in.read(buf)) > 0) {
        sha.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (IOException e) {
      throw new EngineException("cannot read " + file + ": " + IoReasons.of(e), e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
