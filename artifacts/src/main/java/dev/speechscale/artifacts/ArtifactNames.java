package dev.speechscale.artifacts;

/** Default artifact file names (DESIGN §4). */
public final class ArtifactNames {
  private ArtifactNames() {}

  public static String qmax(String model, String transport, String slug) {
    return "qmax-" + model + "-" + transport + "-" + slug + ".json";
  }

  public static String ttotal(String model, String trigger, String slug) {
    return "ttotal-" + model + "-" + trigger + "-" + slug + ".json";
  }

  public static String plan(String model) {
    return "plan-" + model + ".json";
  }
}
