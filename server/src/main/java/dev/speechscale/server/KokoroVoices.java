package dev.speechscale.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Kokoro voice style tables in the kokoro-js {@code .bin} layout: 510 rows × 256 float32
 * little-endian, row {@code n} being the style vector for an input of {@code n} tokens. The voice
 * name is the file name without {@code .bin}.
 */
final class KokoroVoices {
  static final int ROWS = 510;
  static final int STYLE_DIM = 256;
  static final long FILE_BYTES = (long) ROWS * STYLE_DIM * Float.BYTES;

  private final Map<String, float[]> tables;

  private KokoroVoices(Map<String, float[]> tables) {
    this.tables = tables;
  }

  /** Loads every {@code .bin} file named, or found directly inside a named directory. */
  static KokoroVoices load(List<Path> paths) {
    if (paths.isEmpty()) {
      throw new EngineException(
          "--kokoro-voices is required for the kokoro engine; pass a voice .bin file or a"
              + " directory of them (kokoro-js layout: 510x256 float32 LE)");
    }
    Map<String, float[]> tables = new TreeMap<>();
    for (Path path : expand(paths)) {
      String file = path.getFileName().toString();
      tables.put(file.substring(0, file.length() - ".bin".length()), read(path));
    }
    return new KokoroVoices(tables);
  }

  private static List<Path> expand(List<Path> paths) {
    List<Path> files = new ArrayList<>();
    for (Path path : paths) {
      if (Files.isDirectory(path)) {
        try (Stream<Path> listing = Files.list(path)) {
          listing
              .filter(p -> p.getFileName().toString().endsWith(".bin"))
              .sorted()
              .forEach(files::add);
        } catch (IOException e) {
          throw new EngineException(
              "cannot list voice directory " + path + ": " + e.getMessage(), e);
        }
      } else if (path.getFileName().toString().endsWith(".bin")) {
        files.add(path);
      } else {
        throw new EngineException(
            "--kokoro-voices " + path + " is neither a directory nor a .bin voice file");
      }
    }
    if (files.isEmpty()) {
      throw new EngineException("--kokoro-voices " + paths + " contains no .bin voice file");
    }
    return files;
  }

  private static float[] read(Path path) {
    try {
      long size = Files.size(path);
      if (size != FILE_BYTES) {
        throw new EngineException(
            "voice file "
                + path
                + " has "
                + size
                + " bytes; a kokoro-js voice is 510x256 float32 = "
                + FILE_BYTES
                + " bytes; pass the .bin files from the kokoro-js voices folder");
      }
      ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN);
      float[] table = new float[ROWS * STYLE_DIM];
      bytes.asFloatBuffer().get(table);
      return table;
    } catch (IOException e) {
      throw new EngineException("cannot read voice file " + path + ": " + e.getMessage(), e);
    }
  }

  List<String> names() {
    return List.copyOf(tables.keySet());
  }

  /** The style vector for an input of {@code tokenCount} tokens (clamped to the table). */
  float[] style(String voice, int tokenCount) {
    float[] table = tables.get(voice);
    if (table == null) {
      throw new EngineException("no kokoro voice '" + voice + "'; loaded: " + names());
    }
    int row = Math.clamp(tokenCount, 0, ROWS - 1);
    float[] style = new float[STYLE_DIM];
    System.arraycopy(table, row * STYLE_DIM, style, 0, STYLE_DIM);
    return style;
  }
}
