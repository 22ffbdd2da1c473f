package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's newcomer's map cites only what exists. Every code span in the map's table is one of:
 * a path ({@code config/README.md}, or {@code module/…/File.java} for a file of that name anywhere
 * under the module, or a path under some module's {@code src/main/resources}); a type ({@code
 * Platform}: a {@code Platform.java} in some module's sources); or a member ({@code
 * Planner.FINDING_ORDER}: the type's file declares or uses that name). Every link in it points at a
 * file that exists. A span that is none of these fails the test, so a new kind of citation needs a
 * rule here first.
 */
class ReadmeMapTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern CODE = Pattern.compile("`([^`]+)`");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)#]+)(#[^)]*)?\\)");
  private static final Pattern TYPE = Pattern.compile("[A-Z][A-Za-z0-9]*");
  private static final Pattern MEMBER = Pattern.compile("([A-Z][A-Za-z0-9]*)\\.([A-Za-z_][\\w]*)");

  /**
   * The README is a user's guide a newcomer reads in ten minutes: at most 2,500 words, counted as
   * {@code wc -w} counts them (runs of non-whitespace). Every command's full reference lives in
   * docs/, every figure's account in measurements/.
   */
  @Test
  void readme_isAtMost2500Words() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
    long words = Pattern.compile("\\S+").matcher(readme).results().count();
    assertThat(words).as("README.md's words (wc -w)").isPositive().isLessThanOrEqualTo(2500);
  }

  @Test
  void newcomersMap_citesOnlyFilesAndSymbolsThatExist() throws IOException {
    String map = mapTable();
    List<String> missing = new ArrayList<>();
    int cited = 0;
    Matcher code = CODE.matcher(map);
    while (code.find()) {
      cited++;
      String token = code.group(1);
      if (!exists(token)) {
        missing.add(token);
      }
    }
    Matcher link = LINK.matcher(map);
    while (link.find()) {
      cited++;
      if (!Files.exists(ROOT.resolve(link.group(1)))) {
        missing.add(link.group(1));
      }
    }
    assertThat(cited).as("citations in the map").isGreaterThan(15);
    assertThat(missing)
        .as("cited by README.md's newcomer's map but not in the repository")
        .isEmpty();
  }

  @Test
  void exists_aNameTheRepositoryLacks_isFalse() {
    assertThat(exists("server/…/NoSuchEngine.java")).isFalse();
    assertThat(exists("Planner.NO_SUCH_ORDER")).isFalse();
    assertThat(exists("NoSuchType")).isFalse();
    assertThat(exists("Planner.FINDING_ORDER")).isTrue();
  }

  /** The table under the README's "A newcomer's map" heading. */
  private static String mapTable() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
    int at = readme.indexOf("## A newcomer's map");
    assertThat(at).as("README.md has a section \"## A newcomer's map\"").isNotNegative();
    int end = readme.indexOf("\n## ", at + 1);
    StringBuilder table = new StringBuilder();
    for (String line : readme.substring(at, end < 0 ? readme.length() : end).split("\n")) {
      if (line.startsWith("|") && !line.startsWith("| to add") && !line.startsWith("|---")) {
        table.append(line).append('\n');
      }
    }
    return table.toString();
  }

  static boolean exists(String token) {
    if (token.contains("/")) {
      return path(token);
    }
    Matcher member = MEMBER.matcher(token);
    if (member.matches()) {
      return source(member.group(1))
          .map(f -> read(f).matches("(?s).*\\b" + Pattern.quote(member.group(2)) + "\\b.*"))
          .orElse(false);
    }
    if (TYPE.matcher(token).matches()) {
      return source(token).isPresent();
    }
    return false;
  }

  private static boolean path(String token) {
    int ellipsis = token.indexOf("/…/");
    if (ellipsis >= 0) {
      Path module = ROOT.resolve(token.substring(0, ellipsis));
      String name = token.substring(ellipsis + "/…/".length());
      return Files.isDirectory(module) && find(module, name).isPresent();
    }
    if (Files.exists(ROOT.resolve(token))) {
      return true;
    }
    try (Stream<Path> modules = Files.list(ROOT)) {
      return modules.anyMatch(m -> Files.exists(m.resolve("src/main/resources").resolve(token)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The source file of a type, in any module's main or test sources. */
  private static Optional<Path> source(String type) {
    return find(ROOT, type + ".java");
  }

  private static Optional<Path> find(Path under, String fileName) {
    try (Stream<Path> files = Files.walk(under)) {
      return files
          .filter(f -> f.getFileName().toString().equals(fileName))
          .filter(f -> f.toString().contains("/src/"))
          .filter(f -> !f.toString().contains("/target/") && !f.toString().contains("/.git/"))
          .findFirst();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
