package dev.speechscale.platform.aws;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.platform.PlatformException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes one image field ({@code image_uri} or {@code gpu_image_uri}) of one model's {@code aws:}
 * block into an endpoint config's text, leaving every other line as it was (comments, order,
 * quoting): a YAML library would re-emit the whole file and drop the user's comments. The field's
 * line is replaced in place, a trailing comment kept; a block without the field gets it as its
 * first line. The result is parsed back and must carry the new value, so a file this edit does not
 * understand is refused rather than damaged.
 */
final class ConfigImageUri {
  private ConfigImageUri() {}

  private static final Pattern KEY =
      Pattern.compile("^( *)([A-Za-z0-9_.-]+|\"[^\"]*\"|'[^']*'):(.*)$");

  /**
   * The config text with {@code models.<model>.aws.<field>} set to {@code value}.
   *
   * @param file the config's path, named in errors
   * @throws PlatformException (InvalidRequest) naming the field and the fix when the text has no
   *     such block in block style
   */
  static String write(Path file, String text, String model, String field, String value) {
    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
    String at = "models." + model;
    int models = child(lines, 0, lines.size(), -1, "models");
    if (models < 0) {
      throw invalid(file, "has no top-level models: block");
    }
    int modelsEnd = end(lines, models);
    int entry = child(lines, models + 1, modelsEnd, indent(lines.get(models)), model);
    if (entry < 0) {
      throw invalid(
          file, "has no " + at + " entry in block style (`" + model + ":` on its own line)");
    }
    int entryEnd = end(lines, entry);
    int aws = child(lines, entry + 1, entryEnd, indent(lines.get(entry)), "aws");
    if (aws < 0) {
      throw invalid(
          file,
          "has no "
              + at
              + ".aws block: add `aws:` under "
              + at
              + " with model_repository, model_revision and quota_max_instances (config/README.md),"
              + " then push again");
    }
    if (!rest(lines.get(aws)).isEmpty()) {
      throw invalid(
          file,
          "writes "
              + at
              + ".aws in flow style ({...}); write it as a block (one field per line) so the push can"
              + " set "
              + field);
    }
    int awsEnd = end(lines, aws);
    int existing = child(lines, aws + 1, awsEnd, indent(lines.get(aws)), field);
    if (existing >= 0) {
      String line = lines.get(existing);
      String old = rest(line);
      int hash = old.indexOf(" #");
      String comment = hash < 0 ? "" : "  " + old.substring(hash + 1).strip();
      lines.set(existing, " ".repeat(indent(line)) + field + ": " + value + comment);
    } else {
      int childIndent =
          firstContent(lines, aws + 1, awsEnd) < 0
              ? indent(lines.get(aws)) + 2
              : indent(lines.get(firstContent(lines, aws + 1, awsEnd)));
      lines.add(aws + 1, " ".repeat(childIndent) + field + ": " + value);
    }
    String out = String.join("\n", lines);
    EndpointConfig check = EndpointConfigFile.parse(file, out).model(model);
    String written =
        check.aws() == null
            ? null
            : "gpu_image_uri".equals(field) ? check.aws().gpuImageUri() : check.aws().imageUri();
    if (!Objects.equals(written, value)) {
      throw invalid(
          file,
          "could not be edited: after writing "
              + at
              + ".aws."
              + field
              + " it reads '"
              + written
              + "'; set it by hand to "
              + value);
    }
    return out;
  }

  private static PlatformException invalid(Path file, String what) {
    return new PlatformException(new PlatformException.Reason.InvalidRequest(file + " " + what));
  }

  /** The line of key {@code name} directly under the block whose key sits at {@code parent}. */
  private static int child(List<String> lines, int from, int to, int parent, String name) {
    int first = firstContent(lines, from, to);
    if (first < 0) {
      return -1;
    }
    int childIndent = indent(lines.get(first));
    if (childIndent <= parent) {
      return -1;
    }
    for (int i = first; i < to; i++) {
      String line = lines.get(i);
      if (blank(line) || indent(line) != childIndent) {
        continue;
      }
      Matcher m = KEY.matcher(line);
      if (m.matches() && unquote(m.group(2)).equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** The index after the last line of the block whose key is at {@code key}. */
  private static int end(List<String> lines, int key) {
    int keyIndent = indent(lines.get(key));
    for (int i = key + 1; i < lines.size(); i++) {
      if (!blank(lines.get(i)) && indent(lines.get(i)) <= keyIndent) {
        return i;
      }
    }
    return lines.size();
  }

  private static int firstContent(List<String> lines, int from, int to) {
    for (int i = from; i < to; i++) {
      if (!blank(lines.get(i))) {
        return i;
      }
    }
    return -1;
  }

  /** What follows {@code key:} on a key's line, comments included, stripped. */
  private static String rest(String line) {
    Matcher m = KEY.matcher(line);
    if (!m.matches()) {
      return "";
    }
    String r = m.group(3).strip();
    return r.startsWith("#") ? "" : r;
  }

  private static boolean blank(String line) {
    String s = line.strip();
    return s.isEmpty() || s.startsWith("#");
  }

  private static int indent(String line) {
    int i = 0;
    while (i < line.length() && line.charAt(i) == ' ') {
      i++;
    }
    return i;
  }

  private static String unquote(String key) {
    return key.length() >= 2 && (key.startsWith("\"") || key.startsWith("'"))
        ? key.substring(1, key.length() - 1)
        : key;
  }
}
