package dev.speechscale.artifacts;

/** Default artifact file names (DESIGN §4). */
final class ArtifactNames {
  private ArtifactNames() {}

  static String qmax(String model, String transport, String slug) {
    return "qmax-" + model + "-" + transport + "-" + slug + ".json";
  }

  static String ttotal(String model, String trigger, String slug) {
    return "ttotal-" + model + "-" + trigger + "-" + slug + ".json";
  }

  static String plan(String model) {
    return "plan-" + model + ".json";
  }
}
