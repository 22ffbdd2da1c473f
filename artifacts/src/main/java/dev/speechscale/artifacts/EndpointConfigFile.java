package dev.speechscale.artifacts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The endpoint configuration file: YAML with a {@code models:} map, one entry per model. Every
 * problem is reported at once, each naming the field ({@code models.flite.min_instances}), the
 * value and the fix.
 */
public final class EndpointConfigFile {
  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  private final Path file;
  private final Map<String, EndpointConfig> models;

  private EndpointConfigFile(Path file, Map<String, EndpointConfig> models) {
    this.file = file;
    this.models = models;
  }

  public Path file() {
    return file;
  }

  public Map<String, EndpointConfig> models() {
    return models;
  }

  /** The named model, or a clear error listing the models the file has. */
  public EndpointConfig model(String name) {
    EndpointConfig c = models.get(name);
    if (c == null) {
      throw new ArtifactException(
          file + " has no model '" + name + "'; it defines " + String.join(", ", models.keySet()));
    }
    return c;
  }

  /** Reads and validates a config file. */
  public static EndpointConfigFile read(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new ArtifactException(file + ": no such endpoint config file");
    } catch (IOException e) {
      throw new ArtifactException(file + ": cannot be read (" + e.getMessage() + ")");
    }
    return parse(file, text);
  }

  /** Parses config text; {@code file} only names it in messages. */
  public static EndpointConfigFile parse(Path file, String text) {
    JsonNode root;
    try {
      root = YAML.readTree(text);
    } catch (JacksonException e) {
      throw new ArtifactException(file + " is not valid YAML: " + e.getOriginalMessage());
    }
    List<String> problems = new ArrayList<>();
    JsonNode modelsNode = root == null ? null : root.get("models");
    if (modelsNode == null || !modelsNode.isObject() || modelsNode.isEmpty()) {
      throw new ArtifactException(
          file + ": needs a 'models:' map with at least one model (see config/README.md)");
    }
    Map<String, EndpointConfig> models = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : modelsNode.properties()) {
      EndpointConfig c = EndpointConfigParser.model(e.getKey(), e.getValue(), problems);
      if (c != null) {
        models.put(e.getKey(), c);
      }
    }
    if (!problems.isEmpty()) {
      throw new ArtifactException(
          file
              + " has "
              + problems.size()
              + " problem"
              + (problems.size() == 1 ? "" : "s")
              + ":\n  "
              + String.join("\n  ", problems));
    }
    return new EndpointConfigFile(file, Map.copyOf(models));
  }
}
