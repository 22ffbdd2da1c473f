package dev.speechscale.platform.aws;

import dev.speechscale.platform.PlatformException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What one synthesized stack contains, read back from its CloudFormation template in the cloud
 * assembly: the basis of what {@code deploy} and {@code destroy} say they will do.
 *
 * @param stackName the stack
 * @param description the template's description
 * @param template the template file
 * @param resources its resources, in template order
 */
public record StackSummary(
    String stackName, String description, Path template, List<Resource> resources) {
  public StackSummary {
    resources = List.copyOf(resources);
  }

  /** Properties that carry a resource's physical name, most telling first. */
  private static final List<String> NAME_PROPERTIES =
      List.of(
          "EndpointName",
          "AlarmName",
          "DashboardName",
          "LogGroupName",
          "PolicyName",
          "RoleName",
          "BucketName",
          "ResourceId",
          "FilterPattern");

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /**
   * One resource.
   *
   * @param logicalId its logical id
   * @param type its CloudFormation type
   * @param name its physical name when the template sets one, else empty
   * @param retained whether deleting the stack keeps it ({@code DeletionPolicy: Retain})
   */
  public record Resource(String logicalId, String type, String name, boolean retained) {}

  /** Reads {@code <stackName>.template.json} from a cloud assembly directory. */
  public static StackSummary read(Path assembly, String stackName) {
    Path file = assembly.resolve(stackName + ".template.json");
    JsonNode root;
    try {
      root = JSON.readTree(Files.readString(file));
    } catch (NoSuchFileException e) {
      throw new PlatformException(
          new PlatformException.Reason.InvalidRequest(
              file + " does not exist: synthesize first (speech-infra synth --platform aws)"));
    } catch (IOException | JacksonException e) {
      throw new PlatformException(
          new PlatformException.Reason.InvalidRequest(
              file + " cannot be read as a template (" + e.getMessage() + "); synthesize again"),
          e);
    }
    List<Resource> resources = new ArrayList<>();
    JsonNode rs = root.path("Resources");
    for (Map.Entry<String, JsonNode> e : rs.properties()) {
      JsonNode r = e.getValue();
      resources.add(
          new Resource(
              e.getKey(),
              r.path("Type").asString(""),
              name(r.path("Properties")),
              "Retain".equals(r.path("DeletionPolicy").asString(""))));
    }
    return new StackSummary(stackName, root.path("Description").asString(""), file, resources);
  }

  private static String name(JsonNode properties) {
    for (String key : NAME_PROPERTIES) {
      JsonNode v = properties.get(key);
      if (v != null && v.isString()) {
        return v.asString();
      }
    }
    return "";
  }

  /** Resources of one CloudFormation type. */
  public List<Resource> ofType(String type) {
    return resources.stream().filter(r -> r.type().equals(type)).toList();
  }
}
