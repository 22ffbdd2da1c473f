package dev.speechscale.chain;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The text pool requests are drawn from: the built-in Harvard sentences, or a file's lines. */
public final class Texts {
  private Texts() {}

  /** One request per non-blank, non-comment line of {@code file}, or the built-in pool. */
  public static List<String> load(@Nullable Path file) {
    try {
      String text;
      if (file == null) {
        try (InputStream in = Texts.class.getResourceAsStream("texts.txt")) {
          text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
      } else {
        text = Files.readString(file);
      }
      List<String> lines =
          text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
      if (lines.isEmpty()) {
        throw new ChainException(file + " holds no text lines; give one request text per line");
      }
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read the text pool " + file + ": " + e.getMessage(), e);
    }
  }
}
