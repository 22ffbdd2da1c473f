package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The command reference in {@code docs/<tool>.md} against the command lines the CLI builds: every
 * subcommand has a section, and each section's options (its own table plus the shared tables it
 * links to) are exactly the options picocli shows in that command's usage, with the default that
 * usage states. Each option is rendered with picocli's own option renderer (the text {@code --help}
 * prints, before wrapping) and its default read from that text ({@link #defaultOf}); an option
 * whose usage states none is written {@code —} in the docs. {@code -h} and {@code -V} are on every
 * command and are said once at the top of each file. A hidden option (a published tool's alias, see
 * cli/README.md) is not listed.
 *
 * <p>To write a skeleton for a new command, run with {@code -Ddocs.skeleton=true}: it writes {@code
 * target/docs-skeleton.md} with every command's table as the usage gives it.
 */
class DocsReferenceTest {
  private static final Path DOCS = Path.of("..", "docs");
  private static final Pattern HEADING = Pattern.compile("(?m)^## (.+)$");
  private static final Pattern LINK = Pattern.compile("\\]\\(#([a-z0-9-]+)\\)");
  private static final Pattern CODE = Pattern.compile("`([^`]+)`");
  private static final Pattern MARKED_DEFAULT = Pattern.compile("'([^']+)' \\(default\\)");
  private static final Pattern DEFAULT = Pattern.compile("(?:^|[(;,])\\s*default\\b:?\\s*");

  /** One option as picocli's usage renders it. */
  record Rendered(List<String> names, String label, String defaultText, String description) {}

  /** One row of a docs table. */
  record Documented(List<String> names, String defaultText) {}

  static Stream<Arguments> commands() {
    List<Arguments> all = new ArrayList<>();
    for (Object root : List.of(new TtsBench(), new SpeechInfra())) {
      CommandLine cl = Cli.commandLine(root);
      String tool = cl.getCommandName();
      for (Map.Entry<String, CommandLine> sub : cl.getSubcommands().entrySet()) {
        all.add(Arguments.of(tool, sub.getKey(), sub.getValue()));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("commands")
  void docs_everyOptionOfTheUsage_documentedWithItsDefault(
      String tool, String command, CommandLine cl) throws IOException {
    Map<String, Documented> documented = documented(tool, tool + " " + command);
    Map<String, Rendered> rendered = rendered(cl);

    assertThat(documented.keySet())
        .as(
            "options of `%s %s` in docs/%s.md (left) against its usage (right): add the missing"
                + " row or remove the row the CLI no longer has",
            tool, command, tool)
        .containsExactlyInAnyOrderElementsOf(rendered.keySet());
    for (Map.Entry<String, Rendered> e : rendered.entrySet()) {
      Documented d = documented.get(e.getKey());
      assertThat(d.names())
          .as("`%s %s %s`: every name picocli gives it", tool, command, e.getKey())
          .containsExactlyInAnyOrderElementsOf(e.getValue().names());
      assertThat(d.defaultText())
          .as(
              "the default of `%s %s %s` in docs/%s.md against the usage's \"%s\"",
              tool, command, e.getKey(), tool, e.getValue().description())
          .isEqualTo(e.getValue().defaultText());
    }
  }

  @Test
  void docs_sections_areExactlyTheCommandsTheCliHas() throws IOException {
    Map<String, List<String>> expected = new TreeMap<>();
    commands()
        .forEach(a -> {
          Object[] args = a.get();
          expected
              .computeIfAbsent((String) args[0], k -> new ArrayList<>())
              .add(args[0] + " " + args[1]);
        });
    for (Map.Entry<String, List<String>> tool : expected.entrySet()) {
      List<String> commandSections =
          sections(tool.getKey()).keySet().stream()
              .filter(h -> h.startsWith(tool.getKey() + " "))
              .toList();
      assertThat(commandSections)
          .as("the command sections of docs/%s.md", tool.getKey())
          .containsExactlyInAnyOrderElementsOf(tool.getValue());
    }
  }

  @Test
  void skeleton_writtenOnRequest() throws IOException {
    if (!Boolean.getBoolean("docs.skeleton")) {
      return;
    }
    StringBuilder out = new StringBuilder();
    commands()
        .forEach(a -> {
          Object[] args = a.get();
          out.append("## ").append(args[0]).append(' ').append(args[1]).append("\n\n");
          out.append("| option | default | what it does |\n|---|---|---|\n");
          for (Rendered r : rendered((CommandLine) args[2]).values()) {
            out.append("| ")
                .append(String.join(", ", r.names().stream().map(n -> "`" + n + "`").toList()))
                .append(r.label().isEmpty() ? "" : " `" + r.label() + "`")
                .append(" | ")
                .append(r.defaultText())
                .append(" | ")
                .append(r.description().replace("|", "\\|"))
                .append(" |\n");
          }
          out.append('\n');
        });
    Files.writeString(Path.of("target", "docs-skeleton.md"), out, StandardCharsets.UTF_8);
  }

  /** The visible options of a command, keyed by their longest name, as the usage renders them. */
  static Map<String, Rendered> rendered(CommandLine cl) {
    Help help = cl.getHelp();
    Help.IOptionRenderer renderer = help.createDefaultOptionRenderer();
    Help.IParamLabelRenderer labels = help.createDefaultParamLabelRenderer();
    Map<String, Rendered> out = new LinkedHashMap<>();
    CommandSpec spec = cl.getCommandSpec();
    for (OptionSpec o : spec.options()) {
      if (o.hidden() || o.usageHelp() || o.versionHelp()) {
        continue;
      }
      StringBuilder description = new StringBuilder();
      for (Help.Ansi.Text[] row : renderer.render(o, labels, help.colorScheme())) {
        description.append(' ').append(row[row.length - 1].plainString());
      }
      String text = normalise(description.toString());
      String label = labels.renderParameterLabel(o, Help.Ansi.OFF, List.of()).plainString();
      out.put(o.longestName(), new Rendered(List.of(o.names()), label, defaultOf(text), text));
    }
    return out;
  }

  /**
   * The default a description states, or {@code —}: a value marked {@code 'fresh' (default)}, else
   * the text after the last {@code default} that opens the description or follows {@code (}, {@code
   * ;} or {@code ,}, up to the parenthesis that closes it.
   */
  static String defaultOf(String description) {
    Matcher marked = MARKED_DEFAULT.matcher(description);
    if (marked.find()) {
      return marked.group(1);
    }
    Matcher m = DEFAULT.matcher(description);
    int from = -1;
    while (m.find()) {
      if (!description.startsWith(")", m.end())) {
        from = m.end();
      }
    }
    if (from < 0) {
      return "—";
    }
    int depth = 0;
    int end = from;
    for (; end < description.length(); end++) {
      char c = description.charAt(end);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        if (depth == 0) {
          break;
        }
        depth--;
      }
    }
    String value = normalise(description.substring(from, end));
    return value.isEmpty() ? "—" : value;
  }

  /** A command's documented options: its own table and the shared tables its section links. */
  static Map<String, Documented> documented(String tool, String heading) throws IOException {
    Map<String, String> sections = sections(tool);
    String own = sections.get(heading);
    assertThat(own).as("a section `## %s` in docs/%s.md", heading, tool).isNotNull();
    Map<String, Documented> out = new LinkedHashMap<>(rows(own));
    Matcher link = LINK.matcher(own);
    while (link.find()) {
      for (Map.Entry<String, String> s : sections.entrySet()) {
        if (slug(s.getKey()).equals(link.group(1)) && s.getKey().startsWith("Options ")) {
          out.putAll(rows(s.getValue()));
        }
      }
    }
    return out;
  }

  /** The rows of the option tables in a section, keyed by each row's longest name. */
  static Map<String, Documented> rows(String section) {
    Map<String, Documented> out = new LinkedHashMap<>();
    for (String line : section.split("\n")) {
      if (!line.startsWith("| `-")) {
        continue;
      }
      String[] cells = line.substring(1).split("(?<!\\\\)\\|");
      List<String> names = new ArrayList<>();
      Matcher code = CODE.matcher(cells[0]);
      while (code.find()) {
        String token = code.group(1);
        if (token.startsWith("-")) {
          for (String n : token.split("=", 2)[0].split(",\\s*")) {
            names.add(n.trim());
          }
        }
      }
      String longest = names.stream().max((a, b) -> a.length() - b.length()).orElseThrow();
      out.put(longest, new Documented(names, normalise(cells[1].replace("`", ""))));
    }
    return out;
  }

  /** The file's level-two sections by heading. */
  static Map<String, String> sections(String tool) throws IOException {
    String text = Files.readString(DOCS.resolve(tool + ".md"), StandardCharsets.UTF_8);
    Map<String, String> out = new LinkedHashMap<>();
    Matcher m = HEADING.matcher(text);
    List<int[]> at = new ArrayList<>();
    List<String> names = new ArrayList<>();
    while (m.find()) {
      at.add(new int[] {m.start(), m.end()});
      names.add(m.group(1).replace("`", "").trim());
    }
    for (int i = 0; i < at.size(); i++) {
      int end = i + 1 < at.size() ? at.get(i + 1)[0] : text.length();
      out.put(names.get(i), text.substring(at.get(i)[1], end));
    }
    return out;
  }

  /** GitHub's anchor for a heading: lower case, spaces to dashes, punctuation dropped. */
  static String slug(String heading) {
    return heading.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 -]", "").trim().replace(' ', '-');
  }

  private static String normalise(String s) {
    return s.replaceAll("\\s+", " ").trim();
  }
}
